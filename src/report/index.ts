export { summarize } from './summarize.js';
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
} from './leaderboard-view.js';
export { readReportControls, type ReplayRule, type ReportControls } from './read-report-controls.js';
export { scoreTasks, type ScoredTask, type TaskScore, type VoidTask } from './score-tasks.js';
export {
  comparePaired,
  type ComparePairedOptions,
  type ComparePairedResult,
  type PairedComparison,
  type PairedResult,
  type PairedTask,
} from './compare-paired.js';
export { formatPairedSentence, type PairedSentenceInput } from './format-paired-sentence.js';
export { renderComparison } from './render-comparison.js';
export { renderComparisonMarkdown } from './render-comparison-markdown.js';
export { renderComparisonJson, type JsonComparisonReport } from './render-comparison-json.js';
export { renderTable, type RenderTableOptions } from './render-table.js';
export { renderMarkdown } from './render-markdown.js';
export {
  buildJsonReport,
  renderJson,
  type JsonAgent,
  type JsonReport,
  type JsonRun,
} from './render-json.js';
export { detectMixed } from './detect-mixed.js';
export type { Interval } from './interval.js';
export { wilson } from './wilson.js';
export { clusteredShareCi, type ClusteredShareCi } from './clustered-share-ci.js';
export { exactMcNemar } from './exact-mcnemar.js';
export { pairedDifference, type PairedDifference } from './paired-difference.js';
export { studentTCdf, studentTQuantile } from './student-t-quantile.js';
export { median } from './median.js';
export { passAtK, passHatK } from './pass-at-k.js';
