import { jestShapedRunner } from './jest-json-report.js';
import { JEST_CONFIG, JEST_TEST_FILES } from './js-config.js';
import { jestTripwires } from './tripwire-sources.js';

/**
 * jest through `--json` (the default reporter still writes to stderr). Ids are
 * `<file relative to the repo root>::<describe> > … > <title>`, e.g.
 * `__tests__/dates.test.js::format > keeps the zone`. jest marks the tests under a failed
 * `beforeAll` as failed. The cache is off (`--no-cache`): nothing jest compiled from a test file
 * is read back from where the tests could have written it.
 */
export const jestRunner = jestShapedRunner({
  format: 'jest',
  testFiles: JEST_TEST_FILES,
  configFiles: JEST_CONFIG,
  tripwireSource: jestTripwires,
  reportFile: 'jest.json',
  // --no-cache: jest then reads no transform or haste-map cache, which code of the change running
  // in one worker could write for another worker's hidden test file
  reportOptions: '--ci --no-cache --json',
});
