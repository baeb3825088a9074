/**
 * @module runners: the test-runner adapters (one file each, and one line in `registry.ts`):
 * each adds bakeoff's reporter to a task's bare test command and reads the report into exact
 * test ids and statuses. Below the suite (which names a format) and grading (which runs them).
 */
export { getTestRunner, REPORT_FORMATS } from './registry.js';
export type { ReportFormat } from './registry.js';
export { removeStaleReports } from './junit.js';
export { preparedPytestConfig } from './pytest-config.js';
export { ReportUnreadableError } from './read-report-file.js';
export type { InstrumentedCommand, InstrumentOptions, ParsedReport, RunnerBuild, TestResult, TestRunner, TestStatus, TripwireTarget } from './types.js';
export { findTestCases } from './find-test-cases.js';
export type { Leaf, Site, Span, TestCase, TestFileCases } from './tripwire-cases.js';
export { createNamer, cryptoRandom, shuffle } from './tripwire-names.js';
export type { NameStyle, Random } from './tripwire-names.js';
export { content, drawVariants, isVariable } from './tripwire-variants.js';
export { reversed } from './tripwire-sources.js';
export type { VariantContext } from './tripwire-variants.js';
export { resolveRunnerCommand } from './resolve-command.js';
export type { ResolvedCommand } from './resolve-command.js';
