/** Per-test status, normalized across test runners. */
export type TestStatus = 'pass' | 'fail' | 'skip' | 'error';

/** One test's result, as a runner reported it. */
export interface TestResult {
  /** Exact, stable test id, e.g. `tests/test_dates.py::test_tz[utc]` or `test/a.test.mjs::group > name`. */
  readonly id: string;
  readonly status: TestStatus;
  /** First line of the failure or error message, when there is one. */
  readonly message?: string;
}

/** The report formats bakeoff can read (task.yaml `test.format`). */
export const REPORT_FORMATS = ['pytest', 'node-test', 'vitest', 'jest', 'cargo'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What the grader runs: the task's bare test command with the report options added. */
export interface InstrumentedCommand {
  /** Shell command line, run with `sh -c` from the repo root. */
  readonly command: string;
  /** Extra environment variables. */
  readonly env: Readonly<Record<string, string>>;
}

/** Result of reading a runner's report. */
export interface ParsedReport {
  readonly tests: readonly TestResult[];
  /**
   * Problems with the report itself (missing file, malformed line, a test binary whose
   * summary never arrived, one id reported twice with different statuses). Any problem
   * makes grading distrust the report.
   */
  readonly problems: readonly string[];
}

/** One test-runner adapter. Pure except for reading files in `reportDir`. */
export interface TestRunner {
  readonly format: ReportFormat;
  /**
   * Adds the reporter to the bare command. `reportDir` is an empty directory owned by the
   * harness, outside the workspace; every report file goes there.
   */
  instrument(command: string, options: { readonly reportDir: string }): InstrumentedCommand;
  /** Reads the report from `reportDir` (and the combined output where the runner needs it). */
  parse(options: {
    readonly reportDir: string;
    /** Combined stdout+stderr of the test command, in order. */
    readonly output: string;
    readonly repoDir: string;
  }): Promise<ParsedReport>;
}
