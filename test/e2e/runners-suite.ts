import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import { bakeoff, FIXTURES } from './helpers.js';
import { sharedSuite } from './shared-suite.js';

/** Where the copy of test/fixtures/suites/runners goes. */
export const RUNNERS_SUITE = path.join(FIXTURES, 'suites/runners');

/**
 * A validated copy of test/fixtures/suites/runners (one task per format of issue 14, and a
 * pytest task of unittest classes), in `into`: validated once per test run for the files that
 * bake it (runner-formats and hostile-battery-formats); `bakeoff validate` must admit all four.
 */
export async function runnersSuite(into: string): Promise<string> {
  return sharedSuite('runners', async (dir) => {
    await cp(RUNNERS_SUITE, dir, { recursive: true });
    await rm(path.join(dir, 'bakeoff.lock.json'), { force: true });
    const v = await bakeoff(['validate', dir]);
    if (v.exitCode !== 0) throw new Error(`validate ${dir} failed (${v.exitCode}):\n${v.stdout}\n${v.stderr}`);
  }, path.join(into, 'runners'));
}
