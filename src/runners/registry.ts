import type { TestRunner } from './types.js';
import { cargoRunner } from './cargo.js';
import { jestRunner } from './jest.js';
import { junitRunner } from './junit.js';
import { mochaRunner } from './mocha.js';
import { nodeTestRunner } from './node-test.js';
import { pytestRunner } from './pytest.js';
import { tapRunner } from './tap.js';
import { vitestRunner } from './vitest.js';

/**
 * The test-runner adapters, one per report format (task.yaml `test.format`), each under its
 * `format`. A runner is its file and its line here: the formats a suite may name, the CLI's
 * choices and the conformance suites all come from this table.
 */
export const builtins = {
  pytest: pytestRunner,
  'node-test': nodeTestRunner,
  vitest: vitestRunner,
  jest: jestRunner,
  cargo: cargoRunner,
  mocha: mochaRunner,
  tap: tapRunner,
  junit: junitRunner,
} as const satisfies Record<string, TestRunner>;

/** A report format bakeoff reads: a registered runner's name. */
export type ReportFormat = keyof typeof builtins;

/** The report formats bakeoff reads, in the registry's order. */
export const REPORT_FORMATS = Object.keys(builtins) as [ReportFormat, ...ReportFormat[]];

/** The adapter that instruments and parses tests for `format`. */
export function getTestRunner(format: ReportFormat): TestRunner {
  return builtins[format];
}
