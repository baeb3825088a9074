export type { OrderPoints, VerdictMismatch } from './compare-verdicts.js';
export { verifyResults } from './verify-results.js';
export type { RunSelection, RunVerification, VerifyResult } from './verify-results.js';
