export { validateSuite } from './validate-suite.js';
export type { LockWrite, ValidateResult } from './validate-suite.js';
export type { NotedAdmission } from './admit-checks-task.js';
export type { LockComparison, LockStatus } from './validate-suite.js';
export { createHackerAgent, hackerPrompt, HACKER_PREFIX } from './hacker-agent.js';
