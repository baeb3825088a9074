import { defineConfig } from 'vitest/config';

// Everything but the real agent CLIs runs first, two files at a time (vitest's default on two
// cores is one): those files mostly wait on sandboxed subprocesses, and bakeoff's numbers must
// hold on a busy machine anyway (CPU-time limits, busy-machine.e2e). The real agent CLIs
// (test/e2e/agents, test/model-server/real-clis) run after them, one file at a time and alone
// on the machine: their session wall clocks are wall time, and two of them side by side on two
// cores miss them.
const AGENT_CLIS = ['test/e2e/agents/**/*.test.ts', 'test/model-server/real-clis.test.ts'];

const shared = {
  exclude: ['**/node_modules/**', 'examples/**', 'test/fixtures/**'],
  testTimeout: 180_000,
  hookTimeout: 600_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
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
