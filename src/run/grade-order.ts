import { cp, lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { loadSources } from '../grade/checks/load-sources.js';
import { runChecks } from '../grade/checks/run-checks.js';
import { evaluate, type Evaluation, type ExpectedTests } from '../grade/evaluate.js';
import { evaluateChecks } from '../grade/evaluate-checks.js';
import { runTests, type TestRun } from '../grade/run-tests.js';
import type { ReportFormat } from '../grade/types.js';
import { applyPatch } from '../sandbox/git.js';
import type { Isolation } from '../sandbox/isolation.js';
import { createWorkspace } from '../sandbox/workspace.js';
import { listTree } from '../util/fs.js';
import type { GeneratedSet } from './generate-checks.js';

/** How an order is graded: by hidden tests, or by generated checks. */
export type OrderGrading =
  | {
      readonly kind: 'tests';
      readonly test: { readonly command: string; readonly format: ReportFormat };
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
  /** Paths the change touched (for the protected-path check). */
  readonly changedPaths: readonly string[];
  readonly protectedPaths: readonly string[];
  readonly grading: OrderGrading;
  /** Empty folder for this grading (workspace, reports). */
  readonly scratchDir: string;
  /** Where the grader's output and reports are kept. */
  readonly outDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export type OrderGrade =
  | ({ readonly applied: true; readonly testRun: TestRun | null; readonly durationMs: number } & Evaluation)
  | { readonly applied: false; readonly error: string; readonly durationMs: number };

/**
 * Grades one order from a clean copy of the prepared repo plus the agent's patch — never from
 * the agent's live workspace. Tests: the hidden files are copied over whatever the agent put at
 * their paths, and the test command runs in the sandbox. Checks: the workspace's sources run
 * against the generated checks, each in a fresh QuickJS context.
 */
export async function gradeOrder(options: GradeOrderOptions): Promise<OrderGrade> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  const workspace = await createWorkspace(options.preparedRepo, path.join(options.scratchDir, 'w'), options.isolation.workspace);
  try {
    const applied = await applyPatch(workspace.dir, options.patch);
    if (!applied.ok) return { applied: false, error: applied.error, durationMs: elapsed() };
    const isProtected = picomatch([...options.protectedPaths], { dot: true });
    const protectedChanged = options.changedPaths.filter((p) => isProtected(p));
    await mkdir(options.outDir, { recursive: true });
    const { grading } = options;
    if (grading.kind === 'checks') {
      const { files } = await loadSources(workspace.dir, grading.sourceDir);
      const results = await runChecks({ files, entry: grading.entry, checks: grading.generated.checks });
      await writeFile(
        path.join(options.outDir, 'checks.json'),
        JSON.stringify({ digest: grading.generated.digest, checks: grading.generated.checks, results }, null, 1) + '\n',
      );
      return { applied: true, testRun: null, durationMs: elapsed(), ...evaluateChecks(results, protectedChanged) };
    }
    await placeHiddenFiles(workspace.dir, grading.hiddenDirs);
    const testRun = await runTests({
      sandbox: options.isolation.sandbox,
      repoDir: workspace.dir,
      scratchDir: path.join(options.scratchDir, 'tests'),
      command: grading.test.command,
      format: grading.test.format,
      outDir: options.outDir,
      env: options.env,
      timeoutMs: options.timeoutMs,
    });
    const evaluation = evaluate({
      expected: grading.expected,
      report: testRun.report,
      exitCode: testRun.exec.exitCode,
      timedOut: testRun.exec.timedOut,
      protectedChanged,
    });
    return { applied: true, testRun, durationMs: elapsed(), ...evaluation };
  } finally {
    await workspace.dispose();
  }
}

/** Copies hidden files into the repo, replacing any file, folder or link the agent left there. */
export async function placeHiddenFiles(repoDir: string, hiddenDirs: readonly string[]): Promise<void> {
  for (const hiddenDir of hiddenDirs) {
    for (const entry of await listTree(hiddenDir).catch(() => [])) {
      const target = path.join(repoDir, entry.rel);
      await unlinkSymlinkedParents(repoDir, entry.rel);
      await rm(target, { recursive: true, force: true });
      await mkdir(path.dirname(target), { recursive: true });
      await cp(path.join(hiddenDir, entry.rel), target, { verbatimSymlinks: true });
    }
  }
}

/** Removes any symlink among the parent folders of `rel`, so writes cannot leave the repo. */
async function unlinkSymlinkedParents(repoDir: string, rel: string): Promise<void> {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.join(repoDir, ...parts.slice(0, i));
    const st = await lstat(dir).catch(() => undefined);
    if (!st) return;
    if (!st.isDirectory()) {
      await rm(dir, { force: true });
      return;
    }
  }
}
