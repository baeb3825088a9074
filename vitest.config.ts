import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/setup/sequencer.js';

// Everything but the real agent CLIs runs first, two files at a time (vitest's default on two
// cores is one): those files mostly wait on sandboxed subprocesses, and bakeoff's numbers must
// hold on a busy machine anyway (CPU-time limits, busy-machine.e2e). The real agent CLIs
// (test/e2e/agents, test/model-server/real-clis) run after them, one file at a time and alone
// on the machine: their session wall clocks are wall time, and two of them side by side on two
// cores miss them. The site's browser test bakes with the real CLIs too. The leftovers test runs
// there as well: it plants a dead bakeoff's cgroup, and cgroups are machine-wide, so any other
// bakeoff command starting meanwhile (another test file's) sweeps it before doctor can look.
const AGENT_CLIS = ['test/e2e/agents/**/*.test.ts', 'test/e2e/fleet-slots.e2e.test.ts', 'test/model-server/real-clis.test.ts', 'test/model-server/prompt-delivery.test.ts', 'test/e2e/site-browser.e2e.test.ts', 'test/e2e/leftovers.e2e.test.ts'];

const shared = {
  exclude: ['**/node_modules/**', 'examples/**', 'test/fixtures/**'],
  testTimeout: 180_000,
  hookTimeout: 600_000,
  pool: 'forks' as const,
};
// Longest file first, from a committed table of durations when vitest has no cache (test/setup/sequencer.ts).
const sequencer = LongestFirstSequencer;

export default defineConfig({
  test: {
    sequence: { sequencer },
    projects: [
      { test: { ...shared, name: 'agent-clis', include: AGENT_CLIS, maxWorkers: 1, sequence: { groupOrder: 2 } } },
      {
        test: {
          ...shared,
          name: 'main',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...shared.exclude, ...AGENT_CLIS],
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          // suites that several files need, validated once per run (test/e2e/shared-suite.ts)
          globalSetup: ['test/setup/shared-suites.ts'],
        },
      },
    ],
  },
});
