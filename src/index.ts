export { main } from './cli/main.js';
export { loadSuite } from './suite/load-suite.js';
export { validateSuite } from './suite/validate-suite.js';
export { runBake } from './run/run-bake.js';
export { openStore } from './store/open-store.js';
export { resolveAgent } from './agents/registry.js';
export type { Agent, SessionContext, SessionResult } from './agents/types.js';
export type { Outcome, RunRecord, AgentInfo } from './types.js';
export * from './report/index.js';
