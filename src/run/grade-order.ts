import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSources, runChecks, evaluate, type Evaluation, type ExpectedTests, evaluateChecks, protectedChanges, installedPythonModules, runGradedTests, runsPytest, type TestRun, getTestRunner, type ReportFormat, withStarvedRerun, describeTestTimeout, type TestAttempt } from '../grade/index.js';
import { applyPatch, type Isolation, createWorkspace, patchPaths } from '../sandbox/index.js';
import { gradeAttemptDir, gradeFiles } from '../store/index.js';
import type { Task } from '../suite/index.js';
import type { GradeEvidence } from './decide-outcome.js';
import type { GeneratedSet } from './generate-checks.js';

/** How an order is graded: by hidden tests, or by generated checks. */
export type OrderGrading =
  | {
      readonly kind: 'tests';
      readonly test: { readonly command: string; readonly format: ReportFormat; readonly files?: readonly string[] | undefined; readonly report?: string | undefined };
      readonly expected: ExpectedTests;
      /** Hidden folders of this order and every earlier one, oldest first. */
      readonly hiddenDirs: readonly string[];
    }
  | {
      readonly kind: 'checks';
      readonly entry: string;
      readonly sourceDir: string;
      readonly generated: GeneratedSet;
    };

export interface GradeOrderOptions {
  readonly isolation: Isolation;
  readonly preparedRepo: string;
  /** The agent's cumulative change up to this order. */
  readonly patch: string;
  /** The task: its protected and allowed paths, its test command. */
  readonly task: Task;
  readonly grading: OrderGrading;
  /** Empty folder for this grading (workspace, reports). */
  readonly scratchDir: string;
  /** Where the grader's output and reports are kept. */
  readonly outDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Most output kept, and the report folder's size (controls.outputMb). */
  readonly outputBytes: number;
}

export type OrderGrade =
  | ({
      readonly applied: true;
      readonly testRun: TestRun | null;
      /** Each run of the test command (a second when the first timed out starved; decision 011); empty for checks. */
      readonly attempts: readonly TestAttempt[];
      readonly durationMs: number;
    } & Evaluation)
  | { readonly applied: false; readonly error: string; readonly durationMs: number };

/** What a grade shows the outcome rules (`decide-outcome.ts`): a patch that did not apply scores 0 of all the order's points. */
export function gradeEvidence(grade: OrderGrade, grading: OrderGrading): GradeEvidence {
  if (grade.applied) return { applied: true, points: grade.points, maxPoints: grade.maxPoints, failure: grade.failure };
  const maxPoints = grading.kind === 'checks' ? grading.generated.checks.length : grading.expected.failToPass.length + grading.expected.passToPass.length;
  return { applied: false, error: grade.error, maxPoints };
}

/**
 * Grades one order from a clean copy of the prepared repo plus the agent's patch — never from
 * the agent's live workspace. What the change may not touch is judged first (protected paths,
 * runner configuration, compiled files, shadowing modules). Tests: the grading tree is the
 * suite's (its test files, the hidden files, bakeoff's tripwires), the test command runs in the
 * sandbox with the graded files immutable. Checks: the workspace's sources run against the
 * generated checks, each in a fresh QuickJS context.
 */
export async function gradeOrder(options: GradeOrderOptions): Promise<OrderGrade> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  const workspace = await createWorkspace(options.preparedRepo, path.join(options.scratchDir, 'w'), options.isolation.workspace);
  try {
    const applied = await applyPatch(workspace.dir, options.patch);
    if (!applied.ok) return { applied: false, error: applied.error, durationMs: elapsed() };
    const touched = await patchPaths(options.preparedRepo, options.patch);
    await mkdir(options.outDir, { recursive: true });
    const { grading, task } = options;
    const runner = grading.kind === 'tests' ? getTestRunner(grading.test.format) : null;
    const sandbox = options.isolation.sandbox;
    const protectedChanged = await protectedChanges({
      protectedPaths: task.protectedPaths,
      allowedPaths: task.allowedPaths,
      changedPaths: touched.paths,
      binaryPaths: touched.binary,
      runner,
      format: grading.kind === 'tests' ? grading.test.format : null,
      command: grading.kind === 'tests' ? grading.test.command : '',
      preparedRepo: options.preparedRepo,
      repoDir: workspace.dir,
      pythonModules: grading.kind === 'tests' && runsPytest(grading.test.format, grading.test.command) ? await installedPythonModules(sandbox, options.env) : null,
      testDirs: grading.kind === 'tests' ? testDirsOf(grading) : [],
    });
    if (grading.kind === 'checks') {
      const { files } = await loadSources(workspace.dir, grading.sourceDir);
      const results = await runChecks({ files, entry: grading.entry, checks: grading.generated.checks });
      await writeFile(
        gradeFiles(options.outDir).checks,
        JSON.stringify({ digest: grading.generated.digest, checks: grading.generated.checks, results }, null, 1) + '\n',
      );
      return { applied: true, testRun: null, attempts: [], durationMs: elapsed(), ...evaluateChecks(results, protectedChanged) };
    }
    const testsIn = (repoDir: string, scratchDir: string, timeoutMs: number) =>
      runGradedTests({
        sandbox,
        repoDir,
        preparedRepo: options.preparedRepo,
        test: grading.test,
        hiddenDirs: grading.hiddenDirs,
        expectedIds: [...grading.expected.failToPass, ...grading.expected.passToPass],
        templateIds: grading.expected.failToPass,
        knownFailures: task.manifest.knownFailures.map((k) => k.id),
        changedPaths: touched.paths,
        outDir: options.outDir,
        scratchDir,
        env: options.env,
        timeoutMs,
        outputBytes: options.outputBytes,
      });
    // a test run that timed out while the machine starved it runs again, alone, from a clean copy (decision 011)
    const { result: graded, attempts } = await withStarvedRerun(
      async (timeoutMs, n) => {
        if (n === 1) return testsIn(workspace.dir, options.scratchDir, timeoutMs);
        await rename(options.outDir, gradeAttemptDir(options.outDir, 1));
        const again = await createWorkspace(options.preparedRepo, path.join(options.scratchDir, 'w-rerun'), options.isolation.workspace);
        try {
          const reapplied = await applyPatch(again.dir, options.patch);
          if (!reapplied.ok) throw new Error(`the change applied once but not on the re-run's clean copy: ${reapplied.error}`);
          return await testsIn(again.dir, path.join(options.scratchDir, 'rerun'), timeoutMs);
        } finally {
          await again.dispose();
        }
      },
      { timeoutMs: options.timeoutMs, execOf: (g) => g.testRun.exec },
    );
    const evaluation = evaluate({
      expected: grading.expected,
      report: graded.testRun.report,
      exitCode: graded.testRun.exec.exitCode,
      timedOut: graded.testRun.exec.timedOut,
      protectedChanged,
      tripwires: graded.tripwires,
      gradedChanged: graded.gradedChanged,
      outputCut: graded.outputCut,
      unknownTests: graded.unknownTests,
      limitHit: graded.testRun.exec.limitHit,
    });
    const failure = evaluation.failure?.reason === 'test-timeout' ? { reason: 'test-timeout' as const, detail: describeTestTimeout(attempts) } : evaluation.failure;
    return { applied: true, testRun: graded.testRun, attempts, durationMs: elapsed(), ...evaluation, failure };
  } finally {
    await workspace.dispose();
  }
}

/** Folders of the expected tests' files (pytest puts them on sys.path). */
function testDirsOf(grading: Extract<OrderGrading, { kind: 'tests' }>): string[] {
  const dirs = new Set<string>();
  for (const id of [...grading.expected.failToPass, ...grading.expected.passToPass]) {
    const file = id.split('::')[0]!;
    if (file !== id && file.includes('/')) dirs.add(path.posix.dirname(file));
  }
  return [...dirs];
}
