import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { jestShapedRunner } from './jest-json-report.js';
import { VITEST_CONFIG, VITEST_TEST_FILES } from './js-config.js';
import { vitestTripwires } from './tripwire-sources.js';

/**
 * vitest through its `json` reporter (jest-shaped), with the default reporter kept for the
 * output log. Ids are `<file relative to the repo root>::<describe> > … > <title>`, e.g.
 * `test/dates.test.ts::format > keeps the zone`. vitest marks the tests under a failed
 * `beforeAll` as skipped; when no test in the file failed, the file gets an error of its own.
 * Its on-disk module cache is off (`--experimental.fsModuleCache=false`, when it has one).
 */
export const vitestRunner = jestShapedRunner({
  format: 'vitest',
  testFiles: VITEST_TEST_FILES,
  configFiles: VITEST_CONFIG,
  tripwireSource: vitestTripwires,
  reportFile: 'vitest.json',
  reportOptions: (configSource) => `--reporter=default --reporter=json${knowsFsModuleCache(configSource) ? ' --experimental.fsModuleCache=false' : ''}`,
});

const known = new Map<string, boolean>();

/**
 * Whether the prepared repo's vitest has the persistent module cache (`experimental.fsModuleCache`,
 * vitest 4): it keeps modules vitest transformed — hidden test files included — on disk, where
 * code of the change could rewrite one before a later worker reads it. Grading turns it off on
 * the command line, which wins over any configuration; a vitest without the option would refuse it.
 */
function knowsFsModuleCache(configSource: string | undefined): boolean {
  if (configSource === undefined) return false;
  let answer = known.get(configSource);
  if (answer === undefined) {
    const dist = path.join(configSource, 'node_modules', 'vitest', 'dist', 'chunks');
    answer = (existsSync(dist) ? readdirSync(dist) : []).some((f) => f.startsWith('cac.') && f.endsWith('.js') && readFileSync(path.join(dist, f), 'utf8').includes('fsModuleCache'));
    known.set(configSource, answer);
  }
  return answer;
}
