export { openModelUpstream } from './harness-agent/model-upstream.js';
export { HARNESS_NAMES, HARNESSES, exampleOf, exampleSpec, harnessNamed, expectedHarness, isHarnessName, transcriptOf } from './harnesses/index.js';
export type { Harness, HarnessName, TranscriptEntry } from './harnesses/index.js';
export { installDirOf, installHarness, installedVersion } from './install-harness.js';
export { SPEC_FORMS, resolveAgent } from './registry.js';
export { resolveAgents } from './resolve-agents.js';
export { parseHarnessSpec, type HarnessSpec } from './harness-spec.js';
export type { Agent, SessionContext, SessionResult } from './types.js';
export { levelSourceOf, orderLevels } from './effort-levels.js';
