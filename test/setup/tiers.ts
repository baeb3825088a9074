/**
 * The test tiers, each a command of its own (`npm run test:<tier>`); `npm test` runs them all in
 * one vitest run. Every test file belongs to exactly one tier (test/setup/tiers.test.ts checks it):
 *
 * - unit: the co-located tests of `src/` that need nothing of the machine — no root, no
 *   bubblewrap, no mounts or cgroups, no busy loops, no real agent CLI, no built CLI — plus the
 *   architecture test. Under a minute.
 * - conformance: the suites every member of a registry runs (harnesses, test runners, sandbox
 *   backends, importers and exporters), against the real thing where there is one (real test
 *   runners, real bubblewrap), and the tests that add a member to a copy of `src/`.
 * - e2e: the built CLI on fixture suites (test/e2e), and the co-located tests that need the
 *   machine (overlay mounts, CPU quotas, busy loops).
 * - fleet: the fleet on a real redis-server (coordinator, workers, the queue).
 * - agents: the real agent CLIs against bakeoff's scripted model server (and the site's browser
 *   test, which bakes with them). Without them installed, every other tier still runs.
 *
 * A vitest project is a tier's files that run under the same rules: `alone` ones run after all
 * the others, one file at a time, with the machine to themselves — the real CLIs (their
 * session wall clocks are wall time, and two side by side on two cores miss them) and the
 * leftovers test (it plants a dead bakeoff's cgroup, and cgroups are machine-wide: any other
 * bakeoff command starting meanwhile sweeps it before doctor can look).
 */
export interface TierProject {
  /** The vitest project's name (`vitest run --project <name>`). */
  readonly name: string;
  readonly tier: Tier;
  readonly include: readonly string[];
  readonly exclude?: readonly string[];
  /** After every other project, one file at a time. */
  readonly alone?: boolean;
  /** Its files share suites built once per run (test/e2e/shared-suite.ts), with every other project that does. */
  readonly sharedSuites?: boolean;
  /**
   * Files share worker threads and loaded modules (vitest `pool: 'threads'`, `isolate: false`)
   * instead of a fresh process each: half the CPU time of the unit tier goes to starting
   * processes and loading modules again. A file that measures its own process (getrusage) or
   * leaves global state behind cannot share.
   */
  readonly shareWorkers?: boolean;
}

export const TIERS = ['unit', 'conformance', 'e2e', 'fleet', 'agents'] as const;
export type Tier = (typeof TIERS)[number];

/** Registry-driven conformance suites, and the tests that add a plugin to a copy of src/. */
const CONFORMANCE = [
  'src/**/conformance.test.ts',
  'src/agents/harnesses/harnesses.test.ts',
  'src/sandbox/bwrap-sandbox.test.ts',
  'test/architecture/added-plugins.test.ts',
];

/**
 * Unit tests that need a process of their own: one measures its process (getrusage counts every
 * thread of it), one sets HOME (os.homedir() reads the process's environment, which a worker
 * thread's process.env does not change).
 */
const UNIT_OWN_PROCESS = ['src/grade/checks/thread-cpu-clock.test.ts', 'src/sandbox/sandbox-mounts.test.ts'];

/**
 * Co-located tests that need the machine: root, mounts, cgroups, busy loops, host tools (the generated
 * checks' hostile cases spin to their CPU-time limit and backstop, check after check: a minute
 * of the unit tier's time, and its only failures at load 50 and up).
 */
const MACHINE = [
  'src/sandbox/inspect-change.test.ts',
  'src/grade/checks/cpu-time-limits.test.ts',
  'src/grade/checks/run-checks.hostile.test.ts',
  'src/grade/checks/run-checks-in-worker.test.ts',
  'src/sandbox/prepare-repo.test.ts',
  'src/sandbox/process-sandbox.test.ts',
  // libfaketime, python3 and cc: the date check's moved clock and its sleep fix, for real
  'src/grade/shifted-clock.test.ts',
];

/** The real agent CLIs, and what bakes with them. */
const AGENT_CLIS = [
  'test/e2e/agents/**/*.test.ts',
  'test/model-server/**/*.test.ts',
  'test/e2e/fleet-slots.e2e.test.ts',
  'test/e2e/site-browser.e2e.test.ts',
];

/**
 * Real-CLI files that run beside the others, not alone: the calibration budget's overrun is
 * 120 s of waiting by design, and its honest session has all of its 120 s for a few tool calls.
 */
const AGENT_CLIS_BESIDE = ['test/e2e/calibration-budget.e2e.test.ts'];

/** The fleet: its e2e files, and the queue's own tests, which run against a real redis-server. */
const FLEET = ['test/e2e/fleet*.e2e.test.ts', 'test/queue/*.test.ts'];
const E2E_ALONE = ['test/e2e/leftovers.e2e.test.ts'];

export const TIER_PROJECTS: readonly TierProject[] = [
  { name: 'unit', tier: 'unit', include: ['src/**/*.test.ts', 'test/architecture/architecture.test.ts', 'test/setup/*.test.ts'], exclude: [...CONFORMANCE, ...MACHINE, ...UNIT_OWN_PROCESS, ...FLEET], shareWorkers: true },
  { name: 'unit-own-process', tier: 'unit', include: UNIT_OWN_PROCESS },
  { name: 'conformance', tier: 'conformance', include: CONFORMANCE },
  { name: 'e2e', tier: 'e2e', include: ['test/e2e/**/*.test.ts', ...MACHINE], exclude: [...AGENT_CLIS, ...AGENT_CLIS_BESIDE, ...FLEET, ...E2E_ALONE], sharedSuites: true },
  { name: 'e2e-alone', tier: 'e2e', include: E2E_ALONE, alone: true },
  { name: 'fleet', tier: 'fleet', include: FLEET, exclude: AGENT_CLIS, sharedSuites: true },
  { name: 'agents', tier: 'agents', include: AGENT_CLIS, alone: true, sharedSuites: true },
  { name: 'agents-beside', tier: 'agents', include: AGENT_CLIS_BESIDE },
];
