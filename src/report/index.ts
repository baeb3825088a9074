export { summarize } from './summarize.js';
export type {
  AgentSummary,
  LeaderboardView,
  MixedProblem,
  SummarizeOptions,
  TaskCell,
  TaskRow,
} from './leaderboard-view.js';
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
