import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'examples/**', 'test/fixtures/**'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // Two test files at a time, also on two cores (vitest's default there is one): the
    // end-to-end files mostly wait on sandboxed subprocesses, and bakeoff's numbers must hold
    // on a busy machine anyway (CPU-time limits, busy-machine.e2e). Halves CI time.
    maxWorkers: 2,
  },
});
