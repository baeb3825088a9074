import type { TestRunner } from './types.js';

/**
 * The test-runner adapters, one per report format (task.yaml `test.format`), each under its
 * `format`. A runner is its file and its one line here (the line imports the file): the formats
 * a suite may name, the CLI's choices and the conformance suite (`conformance.test.ts`, which
 * runs every entry on the sample projects found for it) all come from this table.
 */
export const builtins = {
  pytest: (await import('./pytest.js')).pytestRunner,
  'node-test': (await import('./node-test.js')).nodeTestRunner,
  vitest: (await import('./vitest.js')).vitestRunner,
  jest: (await import('./jest.js')).jestRunner,
  cargo: (await import('./cargo.js')).cargoRunner,
  mocha: (await import('./mocha.js')).mochaRunner,
  tap: (await import('./tap.js')).tapRunner,
  junit: (await import('./junit.js')).junitRunner,
} as const satisfies Record<string, TestRunner>;

/** A report format bakeoff reads: a registered runner's name. */
export type ReportFormat = keyof typeof builtins;

/** The report formats bakeoff reads, in the registry's order. */
export const REPORT_FORMATS = Object.keys(builtins) as [ReportFormat, ...ReportFormat[]];

/** The adapter that instruments and parses tests for `format`. */
export function getTestRunner(format: ReportFormat): TestRunner {
  return builtins[format];
}
