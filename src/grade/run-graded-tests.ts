import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ClockShift, Sandbox } from '../sandbox/index.js';
import { buildGradingTree, changedGradedFiles, type GradingTree } from './grading-tree.js';
import { runTests, type TestRun } from './run-tests.js';
import { getTestRunner, removeStaleReports, resolveRunnerCommand } from '../runners/index.js';
import { judgeTripwires, withGroupsMapped, withoutTripwires, type TripwireVerdict } from './tripwires.js';
import { buildFirst, changedBuiltFiles } from './build-first.js';
import { runnerCodeBinds } from './runner-code-binds.js';
import { unknownTests } from './unknown-tests.js';
import type { ParsedReport, ReportFormat } from './types.js';

export interface GradedTestsOptions {
  readonly sandbox: Sandbox;
  /** Prepared repo + the change (or the gold change), not yet holding the hidden files. */
  readonly repoDir: string;
  readonly preparedRepo: string;
  readonly test: { readonly command: string; readonly format: ReportFormat; readonly files?: readonly string[] | undefined; readonly report?: string | undefined };
  readonly hiddenDirs: readonly string[];
  /** Ids the lock expects (empty at admission). */
  readonly expectedIds: readonly string[];
  /** Ids bakeoff may make tripwire groups of: the order's fail-to-pass tests (at admission, those failing on the unchanged repo). */
  readonly templateIds?: readonly string[];
  /** Ids the report is known to hold besides the expected ones (at admission: the baseline run's), so that a test made a group has all its ids mapped back. */
  readonly knownIds?: readonly string[];
  /** Ids of the task's known failures (task.yaml `knownFailures`). */
  readonly knownFailures?: readonly string[];
  /** Paths the change added, changed or deleted. */
  readonly changedPaths: readonly string[];
  readonly outDir: string;
  readonly scratchDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly outputBytes: number;
  readonly network?: 'none' | 'host';
  readonly clock?: ClockShift;
}

export interface GradedTests {
  /** The test run; its report holds bakeoff's tripwires, each group's own copy under the test's id again. */
  readonly testRun: TestRun;
  /** The runner's report without bakeoff's tripwires. */
  readonly report: ParsedReport;
  readonly tree: GradingTree;
  readonly tripwires: TripwireVerdict;
  /** Graded test files whose content changed while the tests ran, and test binaries built before the run that changed. */
  readonly gradedChanged: readonly string[];
  /** The runner reports through its output and the output was cut: results may have been lost with it. */
  readonly outputCut: boolean;
  /**
   * Tests the report names that the lock does not know (not expected, not a known failure, not
   * a tripwire) and that passed, failed or errored: for a runner whose report the tests can
   * write into (`forgeableReport`), and only when the lock expects ids (not at admission).
   */
  readonly unknownTests: readonly string[];
}

/**
 * One run of a task's tests the way grading runs them (and admission, so both see the same):
 * the grading tree (suite's test files, hidden files, tripwires, graded files immutable), the
 * runner with configuration from the prepared repo, resolved from it (`npx <name>` as the
 * prepared repo's node_modules/.bin/<name>) and its code read-only (node_modules, virtualenvs),
 * what it compiles built first and shown read-only (cargo), then the tripwires, the graded files
 * and the built files checked. Writes `tripwires.json` next to the test output.
 */
export async function runGradedTests(options: GradedTestsOptions): Promise<GradedTests> {
  const runner = getTestRunner(options.test.format);
  const tree = await buildGradingTree({
    repoDir: options.repoDir,
    preparedRepo: options.preparedRepo,
    runner,
    testFiles: options.test.files ?? runner.testFiles,
    changedPaths: options.changedPaths,
    hiddenDirs: options.hiddenDirs,
    expectedIds: options.expectedIds,
    templateIds: options.templateIds ?? [],
    knownIds: [...(options.knownIds ?? []), ...(options.knownFailures ?? [])],
  });
  // a JUnit report the change left in the repo is never read: the run must write its own
  const staleReports = options.test.report !== undefined ? await removeStaleReports(options.repoDir, options.test.report) : [];
  // which program runs, and the code it loads, come from the prepared repo (runner-configuration.md)
  const resolved = resolveRunnerCommand(options.test.command, { preparedRepo: options.preparedRepo, repoDir: options.repoDir, pathEnv: options.env.PATH ?? '' });
  const env = { ...options.env, ...resolved.env };
  const binds = [
    ...tree.binds,
    ...(await runnerCodeBinds({ preparedRepo: options.preparedRepo, repoDir: options.repoDir, scratchDir: options.scratchDir, owner: options.sandbox.owner })),
  ];
  await mkdir(options.outDir, { recursive: true });
  const built = await buildFirst({
    sandbox: options.sandbox,
    runner,
    command: resolved.command,
    repoDir: options.repoDir,
    env,
    binds,
    timeoutMs: options.timeoutMs,
    outputBytes: options.outputBytes,
    outDir: options.outDir,
  });
  const ran = await runTests({
    sandbox: options.sandbox,
    repoDir: options.repoDir,
    scratchDir: path.join(options.scratchDir, 'tests'),
    command: resolved.command,
    format: options.test.format,
    report: options.test.report,
    outDir: options.outDir,
    env,
    // the build's time is the test command's too
    timeoutMs: Math.max(1000, options.timeoutMs - (built?.exec.durationMs ?? 0)),
    outputBytes: options.outputBytes,
    configSource: options.preparedRepo,
    binds: [...binds, ...(built?.binds ?? [])],
    ...(options.network ? { network: options.network } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const builtChanged = (await changedBuiltFiles(options.repoDir, built)).map((rel) => `${rel} (a test binary built before the run)`);
  const gradedChanged = [...(await changedGradedFiles(options.repoDir, tree.digests)), ...builtChanged];
  const placed = { groups: tree.groups, wires: tree.tripwires };
  const tripwires = judgeTripwires(ran.report, placed);
  await writeFile(
    path.join(options.outDir, 'tripwires.json'),
    JSON.stringify(
      {
        tripwires: tree.tripwires,
        groups: tree.groups,
        verdict: tripwires,
        gradedFiles: tree.gradedFiles,
        removed: tree.removed,
        restored: tree.restored,
        staleReports,
        command: resolved.command,
        builtFiles: [...(built?.identities.keys() ?? [])].map((file) => path.relative(options.repoDir, file)),
      },
      null,
      1,
    ) + '\n',
  );
  const testRun = { ...ran, report: withGroupsMapped(ran.report, tree.groups) };
  const report = withoutTripwires(ran.report, placed);
  return {
    testRun,
    report,
    unknownTests: unknownTests(report, { forgeable: runner.forgeableReport === true, expectedIds: options.expectedIds, ...(options.knownFailures ? { knownFailures: options.knownFailures } : {}) }),
    tree,
    tripwires,
    gradedChanged,
    outputCut: testRun.exec.outputTruncated && runner.reportIsOutput === true,
  };
}
