import { jestShapedRunner } from './jest-json-report.js';
import { VITEST_CONFIG, VITEST_TEST_FILES } from './js-config.js';
import { vitestTripwires } from './tripwire-sources.js';

/**
 * vitest through its `json` reporter (jest-shaped), with the default reporter kept for the
 * output log. Ids are `<file relative to the repo root>::<describe> > … > <title>`, e.g.
 * `test/dates.test.ts::format > keeps the zone`. vitest marks the tests under a failed
 * `beforeAll` as skipped; when no test in the file failed, the file gets an error of its own.
 */
export const vitestRunner = jestShapedRunner({
  format: 'vitest',
  testFiles: VITEST_TEST_FILES,
  configFiles: VITEST_CONFIG,
  tripwireSource: vitestTripwires,
  reportFile: 'vitest.json',
  reportOptions: '--reporter=default --reporter=json',
});
