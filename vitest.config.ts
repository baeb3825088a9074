import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'examples/**', 'test/fixtures/**'],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});
