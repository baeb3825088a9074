import path from 'node:path';
import type { TestRunner } from '../types.js';
import { readJestJsonReport } from './jest-json-report.js';
import { recordRepoRoot } from './repo-root.js';
import { quoteShellArg } from '../../util/index.js';
import { VITEST_CONFIG, VITEST_TEST_FILES } from './js-config.js';
import { vitestTripwires } from './tripwire-sources.js';

const REPORT_FILE = 'vitest.json';

/**
 * vitest through its `json` reporter (jest-shaped), with the default reporter kept for the
 * output log. Ids are `<file relative to the repo root>::<describe> > … > <title>`, e.g.
 * `test/dates.test.ts::format > keeps the zone`. vitest marks the tests under a failed
 * `beforeAll` as skipped; when no test in the file failed, the file gets an error of its own.
 */
export const vitestRunner: TestRunner = {
  format: 'vitest',
  testFiles: VITEST_TEST_FILES,
  configFiles: VITEST_CONFIG,
  reportFiles: [REPORT_FILE, 'root.txt'],
  testNamePrefix: '',
  tripwireSource: vitestTripwires,
  instrument(command, { reportDir }) {
    const outputFile = quoteShellArg(`--outputFile=${path.join(reportDir, REPORT_FILE)}`);
    return {
      command: `${recordRepoRoot(reportDir)}; ${command} --reporter=default --reporter=json ${outputFile}`,
      env: {},
    };
  },
  parse: ({ reportDir, repoDir }) => readJestJsonReport({ reportDir, repoDir, reportFile: REPORT_FILE }),
};
