/**
 * bakeoff as a library. The five entry points do what the commands of the same name do (the CLI
 * is a thin shell over them); each takes plain options and an event callback and returns data.
 *
 *   validate({ suite })                 admission checks, suite hash, TASKS.md, the lock file
 *   bake({ suite, agents })             the runs the results folder lacks (resumes), the leaderboard
 *   report({ results })                 the leaderboard or a paired comparison, as data
 *   verify({ results })                 every stored run re-graded, every artifact re-hashed
 *   publish({ results, out })           verify, then the static site
 *
 * `openBake()` holds what a bake's runs share (suite, agents, sandbox, store) for a caller that
 * schedules runs itself. The renderers and statistics of `report/` are exported too.
 */
export {
  bake,
  openBake,
  publish,
  report,
  validate,
  verify,
  type BakeApiEvent,
  type BakeOutcome,
  type BakeRequest,
  type LockWrite,
  type NoteEvent,
  type OpenBake,
  type Place,
  type PublishOutcome,
  type PublishRequest,
  type ReportOutcome,
  type ReportRequest,
  type TaskVerdict,
  type ValidateEvent,
  type ValidateOutcome,
  type ValidateRequest,
  type VerifyEvent,
  type VerifyRequest,
} from './api/index.js';
export { main } from './cli/index.js';
export { loadSuite, type Suite, type Task } from './suite/index.js';
export { runBake, type BakeEvent, type BakeSummary } from './run/index.js';
export { openStore, lockResults, readHolder, type LockHolder, type ResultsLock, type Store } from './store/index.js';
export { resolveAgent, type Agent, type SessionContext, type SessionResult } from './agents/index.js';
export type { RunVerification, VerifyResult } from './verify/index.js';
export type { Outcome, RunRecord, AgentInfo } from './types.js';
export * from './report/index.js';
