import path from 'node:path';
import type { TestRunner } from '../types.js';
import { readJestJsonReport } from './jest-json-report.js';
import { recordRepoRoot } from './repo-root.js';
import { quoteShellArg } from '../../util/index.js';
import { JEST_CONFIG, JEST_TEST_FILES } from './js-config.js';
import { jestTripwires } from './tripwire-sources.js';

const REPORT_FILE = 'jest.json';

/**
 * jest through `--json` (the default reporter still writes to stderr). Ids are
 * `<file relative to the repo root>::<describe> > … > <title>`, e.g.
 * `__tests__/dates.test.js::format > keeps the zone`. jest marks the tests under a failed
 * `beforeAll` as failed.
 */
export const jestRunner: TestRunner = {
  format: 'jest',
  testFiles: JEST_TEST_FILES,
  configFiles: JEST_CONFIG,
  reportFiles: [REPORT_FILE, 'root.txt'],
  testNamePrefix: '',
  tripwireSource: jestTripwires,
  instrument(command, { reportDir }) {
    const outputFile = quoteShellArg(`--outputFile=${path.join(reportDir, REPORT_FILE)}`);
    return { command: `${recordRepoRoot(reportDir)}; ${command} --ci --json ${outputFile}`, env: {} };
  },
  parse: ({ reportDir, repoDir }) => readJestJsonReport({ reportDir, repoDir, reportFile: REPORT_FILE }),
};
