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
  /** Set when a report file exists but is not a regular file within its limit (a FIFO, a symlink, too big): why. */
  readonly unreadable?: string;
  /** Report files read from outside the report folder (junit: the XML in the repo), kept with the test output. */
  readonly sources?: readonly { readonly name: string; readonly text: string }[];
}

/** A graded test file bakeoff appends its tripwire tests to. */
export interface TripwireTarget {
  /** Repo-relative path. */
  readonly file: string;
  /** The file's text (as graded: the suite's copy). */
  readonly text: string;
  /** How the file is loaded, for JavaScript: ES module or CommonJS (from its extension, its imports, package.json `type`). */
  readonly moduleKind: 'esm' | 'cjs';
  /** The names and nonces to use (random per grading). */
  readonly pass: string;
  readonly assertFail: { readonly name: string; readonly nonce: string };
  readonly throwFail: { readonly name: string; readonly nonce: string };
}

export interface InstrumentOptions {
  readonly reportDir: string;
  readonly configDir?: string;
  readonly configSource?: string;
  /** task.yaml `test.report`: where the command writes its report in the repo (junit). */
  readonly report?: string | undefined;
}

/** How a runner builds what its tests run before running any of it (see {@link TestRunner.build}). */
export interface RunnerBuild {
  /** The bare command as a build of everything it will run, running none of it. */
  command(command: string): InstrumentedCommand;
  /** Absolute paths of what the build made that the tests run (cargo: the test binaries), from the build's output. */
  builtFiles(output: string): string[];
}

/** One test-runner adapter. Pure except for writing its own files into the folders it is given and reading reports. */
export interface TestRunner {
  /** The report format it reads: its key in the registry (`registry.ts`), task.yaml `test.format`. */
  readonly format: string;
  /**
   * Files this runner collects as tests by default (repo-relative globs; task.yaml `test.files`
   * overrides). Graded runs use the suite's copy of every such file: an agent's edits to them
   * are left out and files it added are removed.
   */
  readonly testFiles: readonly string[];
  /**
   * Files that configure the runner or what it loads (repo-relative globs): a change to any is
   * `protected-path-changed`. See docs/runner-configuration.md.
   */
  readonly configFiles: readonly string[];
  /** What a test function's name must start with to be collected (pytest: `test_`), for the tripwires' names. */
  readonly testNamePrefix: string;
  /** Files the reporter writes into the report folder: made by bakeoff before the run, the only entries there the tests can write. */
  readonly reportFiles: readonly string[];
  /**
   * Source to append to a graded test file so that it also holds bakeoff's tripwire tests: one
   * that must pass (`pass`), one that must fail through the framework's own assertion with
   * `assertFail.nonce` in its message, one that must fail by throwing `throwFail.nonce`.
   */
  tripwireSource(target: TripwireTarget): string;
  /**
   * The ids a test defined in `file` (its containers `path`: describe titles, classes, modules)
   * under `name` may be reported as, for the tripwire groups (grade/tripwire-groups.ts); a
   * pytest-style parametrized test's ids add `[…]` to one of them. Absent (or empty for a file):
   * bakeoff does not know how the runner names that file's tests, and puts no group there.
   */
  readonly testIds?: (file: string, path: readonly string[], name: string, text: string) => readonly string[];
  /**
   * Whether a test file can hold tripwires without changing what it is (default: yes). node:test
   * reports a file that does not use node:test (a plain script, tape) only as a whole; tests
   * appended to it would turn it into a file of tests and hide its own result.
   */
  readonly holdsTripwires?: (text: string, file: string) => boolean;
  /**
   * The report is the command's own output (cargo's libtest JSON, TAP on stdout), read through
   * the sandbox's pipe: output cut at its limit loses results with it.
   */
  readonly reportIsOutput?: boolean;
  /**
   * What the tests print can become part of the report (TAP on stdout): a graded report may then
   * name only the tests the lock knows (expected, known failures, tripwires); any other id that
   * passed, failed or errored makes it report-inconsistent, since it can only be a line the code
   * under test printed or one it moved to another test.
   */
  readonly forgeableReport?: boolean;
  /**
   * Builds everything the tests will run before any of it runs (cargo: `cargo test --no-run`
   * compiles every test binary), so that the run that follows is shown what was built read-only
   * and finds nothing left to build. Absent: the command builds as it runs.
   */
  readonly build?: RunnerBuild;
  /**
   * Adds the reporter to the bare command. `reportDir` is the report folder (outside the
   * workspace; its files are made from `reportFiles` first); `configDir` an empty folder the
   * runner may write configuration into, shown read-only to the tests; `configSource` the
   * prepared repo, where configuration is copied from (never from the change).
   */
  instrument(command: string, options: InstrumentOptions): InstrumentedCommand;
  /** Reads the report from `reportDir` (and the combined output where the runner needs it). */
  parse(options: {
    readonly reportDir: string;
    /**
     * Combined stdout+stderr of the test command, in order, for a runner whose report it is
     * (`reportIsOutput`); empty for the others (a flood of output is never read for nothing).
     */
    readonly output: string;
    readonly repoDir: string;
    /** task.yaml `test.report`: where the command writes its report in the repo (junit). */
    readonly report?: string | undefined;
  }): Promise<ParsedReport>;
}
