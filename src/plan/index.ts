export { planRuns } from './plan-runs.js';
export type { RunSpec } from './plan-runs.js';
export { selectTasks, type TaskSelection } from './select-tasks.js';
