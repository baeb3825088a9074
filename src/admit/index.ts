export { validateSuite } from './validate-suite.js';
export type { LockWrite, ValidateResult } from './validate-suite.js';
