import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/setup/sequencer.js';
import { TIER_PROJECTS } from './test/setup/tiers.js';

// One project per tier (test/setup/tiers.ts). Everything but the `alone` projects runs first,
// four files at a time on CI's two cores (vitest's default there is one): a file waits on
// sandboxed subprocesses between bursts of CPU, and bakeoff's numbers must hold on a busy
// machine anyway (CPU-time limits, busy-machine.e2e). Two files at a time took 32 min 7 s in a
// quiet full run, three 26 min 13 s; at three and four the machine is busy throughout (two e2e
// files alone keep both cores 97 % busy), so more files at once buy little more. The `alone`
// projects (the real agent CLIs, the leftovers test) run after them, one file at a time, with
// the machine to themselves.
/** Files at once before the alone projects. */
const FILES_AT_ONCE = 4;

const shared = {
  exclude: ['**/node_modules/**', 'examples/**', 'test/fixtures/**'],
  testTimeout: 180_000,
  hookTimeout: 600_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // Longest file first across all the projects of a group, from a committed table of durations
    // when vitest has no cache (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: TIER_PROJECTS.map((p) => ({
      test: {
        ...shared,
        name: p.name,
        include: [...p.include],
        exclude: [...shared.exclude, ...(p.exclude ?? [])],
        maxWorkers: p.alone ? 1 : FILES_AT_ONCE,
        sequence: { groupOrder: p.alone ? 2 : 1 },
        // suites that several files need, validated once per run (test/e2e/shared-suite.ts)
        ...(p.sharedSuites ? { globalSetup: ['test/setup/shared-suites.ts'] } : {}),
        ...(p.shareWorkers ? { pool: 'threads' as const, isolate: false } : {}),
      },
    })),
  },
});
