export { summarize } from './view/summarize.js';
export type {
  AgentSummary,
  LeaderboardView,
  MixedProblem,
  Ranking,
  ReplaySummary,
  SummarizeOptions,
  TaskCell,
  TaskRow,
  VoidTaskSummary,
} from './view/leaderboard-view.js';
export { readReportControls, type ReplayRule, type ReportControls } from './view/read-report-controls.js';
export { scoreTasks, type ScoredTask, type TaskScore, type VoidTask } from './view/score-tasks.js';
export {
  comparePaired,
  type ComparePairedOptions,
  type ComparePairedResult,
  type PairedComparison,
  type PairedResult,
  type PairedTask,
} from './view/compare-paired.js';
export { formatPairedSentence, type PairedSentenceInput } from './common/format-paired-sentence.js';
export { comparisonPower, formatPoints, type ComparisonPower } from './view/comparison-power.js';
export { estimateVariances, type PairedVariances } from './view/estimate-variances.js';
export {
  planBake,
  type BakePlan,
  type PlanAssumptions,
  type PlanCell,
  type PlanColumn,
  type PlanDesign,
  type PlanMethod,
  type PlanOptions,
} from './view/plan-bake.js';
export { renderPlan, type PlanSource } from './render/render-plan.js';
export { classifyFailure, needsSessionClues, type RunFailure } from './view/classify-failure.js';
export {
  FAILURE_ANATOMY_VERSION,
  FAILURE_CLASS_INFO,
  FAILURE_CLASSES,
  FAILURE_SIDES,
  type FailureClass,
  type FailureSide,
} from './view/failure-classes.js';
export {
  BROKEN_SHOWN,
  isRefusal,
  toolCluesOf,
  type CheckCount,
  type FailureEvidence,
  type RequestClue,
  type SessionClues,
  type TestTally,
  type ToolClues,
} from './view/failure-evidence.js';
export { classifyRuns, compareFailures, describeTally, tallyFailures, type FailureAnatomy, type FailureDifference, type FailureTally } from './view/failure-anatomy.js';
export { renderComparison } from './render/render-comparison.js';
export { renderComparisonMarkdown } from './render/render-comparison-markdown.js';
export { renderComparisonJson, type JsonComparisonReport } from './render/render-comparison-json.js';
export { renderTable, type RenderTableOptions } from './render/render-table.js';
export { renderMarkdown } from './render/render-markdown.js';
export { renderMatrix } from './render/render-matrix.js';
export {
  buildJsonReport,
  jsonAgents,
  renderJson,
  renderJsonChunks,
  type JsonAgent,
  type JsonReport,
  type JsonRun,
} from './render/render-json.js';
export { detectMixed } from './view/detect-mixed.js';
export type { Interval } from './stats/interval.js';
export { wilson } from './stats/wilson.js';
export { clusteredShareCi, type ClusteredShareCi } from './stats/clustered-share-ci.js';
export { exactMcNemar } from './stats/exact-mcnemar.js';
export { pairedDifference, type PairedDifference } from './stats/paired-difference.js';
export { studentTCdf, studentTQuantile } from './stats/student-t-quantile.js';
export { median } from './stats/median.js';
export { passAtK, passHatK } from './stats/pass-at-k.js';
export { mcnemarMdd, mcnemarPower, MCNEMAR_MIN_TASKS, POWER_ALPHA, POWER_TARGET, type McNemarMdd } from './stats/mcnemar-power.js';
export { pairedTMdd, pairedTPower, pairedTSe, type PairedTDesign } from './stats/paired-t-power.js';
export { renderHtmlReport, type HtmlReportInput } from './site/index.js';
export { SITE_MARKER, renderComparePage, renderSite, sitePages } from './site/index.js';
export type { CostByClass, PrivateOrderDetail, SiteCheck, SiteInput, SiteRequest, SiteSession, SiteSuite, SiteTask } from './site/index.js';
export { describeQuota, quotaUse, type QuotaReading, type QuotaWindow } from './view/quota-use.js';
export { budgetUse, describeBudget, scoredRuns, stoppedSentence, stopsPass, type BudgetUse } from './view/budget-use.js';
