import type { ReportFormat, TestRunner } from '../types.js';
import { cargoRunner } from './cargo.js';
import { jestRunner } from './jest.js';
import { junitRunner } from './junit.js';
import { mochaRunner } from './mocha.js';
import { nodeTestRunner } from './node-test.js';
import { pytestRunner } from './pytest.js';
import { tapRunner } from './tap.js';
import { vitestRunner } from './vitest.js';

/** The built-in test-runner adapters, one per report format (task.yaml `test.format`). */
export const builtins = {
  pytest: pytestRunner,
  'node-test': nodeTestRunner,
  vitest: vitestRunner,
  jest: jestRunner,
  cargo: cargoRunner,
  mocha: mochaRunner,
  tap: tapRunner,
  junit: junitRunner,
} as const satisfies Record<ReportFormat, TestRunner>;

/** The adapter that instruments and parses tests for `format`. */
export function getTestRunner(format: ReportFormat): TestRunner {
  return builtins[format];
}
