/** The test-runner contract grading uses; it lives with the runners (`src/runners/`). */
export type { InstrumentedCommand, InstrumentOptions, ParsedReport, ReportFormat, TestResult, TestRunner, TestStatus, TripwireTarget } from '../runners/index.js';
