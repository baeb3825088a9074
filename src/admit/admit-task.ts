import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildSleepFix, clockSafety, crossCheck, runGradedTests, withStarvedRerun, type GradedTests, type TestStatus } from '../grade/index.js';
import { patchPaths, type Isolation, type ClockShift } from '../sandbox/index.js';
import type { ObservedTest, OrderAdmission, Task, TaskAdmission } from '../suite/index.js';

import { differences, disagreement, list } from './compare-runs.js';
import { shiftedClockReason } from './shifted-clock-reason.js';
import { admissionTimeout } from './admission-timeout.js';
import { InfraError } from '../errors.js';
import { testIdFile } from './test-id-file.js';
import { listHiddenFiles, uncollectedHint } from './uncollected-hint.js';
import { GoldPatchError, workspaceWithGold } from './workspace-with-gold.js';
import { expectedMismatches } from './expected-tests.js';

export type { OrderAdmission, TaskAdmission } from '../suite/index.js';

/** The clock moved by years and the time zone moved across the date line. */
export const SHIFTED_CLOCK: ClockShift = { offset: '+7y', timeZone: 'Pacific/Kiritimati' };

export interface AdmitOptions {
  readonly task: Task;
  readonly preparedRepo: string;
  readonly isolation: Isolation;
  readonly env: Readonly<Record<string, string>>;
  readonly testTimeoutMs: number;
  /** Most output kept, and the report folder's size (controls.outputMb). */
  readonly outputBytes: number;
  /** Empty folder for workspaces and logs. */
  readonly scratchDir: string;
  /** Told as each test run of the admission starts (`baseline`, `gold-1`, …), for progress. */
  readonly onStage?: (stage: string) => void;
}

/** The output log of one test run of an admission. */
export interface StageLog {
  /** The stage: `baseline`, `gold-1`, … (`order 2 baseline` in a task of several orders). */
  readonly stage: string;
  /** Its test output log, in the scratch folder (gone once validate ends). */
  readonly path: string;
}

/** An admission; a rejection carries the output logs of the test runs made up to it. */
export type AdmitResult = TaskAdmission & { readonly stageLogs?: readonly StageLog[] };

/**
 * Proves a task fit to measure, order by order: the hidden tests give per-test results; on the
 * unchanged repo at least one fails; with the gold change every test passes, twice the same
 * way (not flaky), with no network, and the same under a shifted clock and time zone (a third
 * unshifted gold run tells a test bound to the clock from one that changes by chance).
 */
export async function admitTask(options: AdmitOptions): Promise<AdmitResult> {
  const logs: StageLog[] = [];
  try {
    return await admitOrders(options, logs);
  } catch (error) {
    if (error instanceof GoldPatchError || error instanceof TestTimeoutError) return { admitted: false, reason: error.message, stageLogs: logs };
    throw error;
  }
}

/** A test run of the admission ran out of its clock (not starved, or after a re-run that was not): the task is rejected for that, by name. */
class TestTimeoutError extends Error {}

async function admitOrders(options: AdmitOptions, logs: StageLog[]): Promise<AdmitResult> {
  const orders: OrderAdmission[] = [];
  const notes: string[] = [];
  let testSec = 0;
  const { command } = options.task.manifest.test;
  const clock = await dateCheckClock(options.task.manifest.language, options.env);
  for (const order of options.task.orders) {
    const stageOf = (label: string): string => (options.task.orders.length > 1 ? `order ${order.index} ${label}` : label);
    const where = options.task.orders.length > 1 ? `order ${order.index}: ` : '';
    // the gold runs hold tripwire groups of the tests that failed on the unchanged repo, as grading does of the fail-to-pass ones
    let templateIds: readonly string[] = [];
    let knownIds: readonly string[] = [];
    const attempt = async (label: string, goldUpTo: number, extra: { network?: 'none' | 'host'; clock?: ClockShift } = {}): Promise<GradedTests> => {
      options.onStage?.(stageOf(label));
      // a run that timed out while the machine starved it runs again, alone, with a longer clock (decision 011)
      const { result: run, attempts } = await withStarvedRerun(
        (timeoutMs, n) => testWithGold(options, `${order.index}-${label}${n === 2 ? '-rerun' : ''}`, order.index, goldUpTo, { ...extra, timeoutMs, templateIds, knownIds }),
        { timeoutMs: options.testTimeoutMs, execOf: (r) => r.testRun.exec },
      );
      logs.push({ stage: stageOf(label), path: run.testRun.outputPath });
      // a timeout is named as one, never read as the tests it cut off (`flaky: pass, then missing`); one the machine decided is no verdict
      const timeout = admissionTimeout(attempts, stageOf(label));
      if (timeout?.kind === 'machine-starved') throw new InfraError(`task ${options.task.id}: ${where}${timeout.message}`);
      if (timeout) throw new TestTimeoutError(where + timeout.reason);
      return run;
    };
    const reject = (reason: string): AdmitResult => ({ admitted: false, reason: where + reason, stageLogs: logs });
    const hiddenFiles = await listHiddenFiles(order.hiddenDir);
    const hint = (...runs: GradedTests[]): string => uncollectedHint({ order: order.index, hiddenFiles, ids: runs.flatMap((r) => r.report.tests.map((t) => t.id)), command });

    const baseline = await attempt('baseline', order.index - 1);
    if (baseline.report.tests.length === 0) {
      return reject(`the tests produced no per-test results on the unchanged repo${problems(baseline)} (see the ${stageOf('baseline')} log)${hint(baseline)}`);
    }
    // the unchanged repo runs twice too: a test that fails there only sometimes would become
    // fail-to-pass, required of every agent
    const baseline2 = await attempt('baseline-2', order.index - 1);
    const baselineDrift = differences(statuses(baseline), statuses(baseline2));
    if (baselineDrift.length > 0) {
      return reject(`flaky on the unchanged repo: its runs ${stageOf('baseline')} and ${stageOf('baseline-2')} disagree on ${disagreement(baselineDrift, statuses(baseline), statuses(baseline2))} (see their logs)`);
    }
    templateIds = baseline.report.tests.filter((t) => t.status !== 'pass').map((t) => t.id);
    knownIds = baseline.report.tests.map((t) => t.id);
    const gold1 = await attempt('gold-1', order.index);
    testSec += gold1.testRun.exec.durationMs / 1000;
    const testEdits = [...gold1.tree.restored, ...gold1.tree.removed];
    if (testEdits.length > 0) {
      return reject(`the gold patch changes test files (${list(testEdits)}); graded runs always use the suite's test files, so test changes belong in orders/${order.index}/hidden/`);
    }
    const gold2 = await attempt('gold-2', order.index);
    const drift = differences(statuses(gold1), statuses(gold2));
    if (drift.length > 0) return reject(`flaky: the gold runs ${stageOf('gold-1')} and ${stageOf('gold-2')} disagree on ${disagreement(drift, statuses(gold1), statuses(gold2))} (see their logs)`);
    const known = new Set(options.task.manifest.knownFailures.map((k) => k.id));
    const knownProblem = checkKnownFailures(known, gold1, baseline);
    if (knownProblem) return reject(knownProblem);
    const failing = gold1.report.tests.filter((t) => (t.status === 'fail' || t.status === 'error') && !known.has(t.id)).map((t) => t.id);
    if (failing.length > 0 || gold1.report.tests.length === 0) {
      const online = await attempt('gold-network', order.index, { network: 'host' });
      const onlineFailing = online.report.tests.filter((t) => t.status === 'fail' || t.status === 'error');
      if (failing.length > 0 && onlineFailing.length === 0 && online.report.tests.length > 0) {
        return reject(`needs the network: ${list(failing)} fail without network and pass with it`);
      }
      if (failing.length === 0) {
        return reject(`the gold run produced no per-test results${problems(gold1)} (see the ${stageOf('gold-1')} log)${hint(gold1, online) || '; the test command must run the hidden tests'}`);
      }
      return reject(`the gold patch does not make every test pass: ${list(failing)}${problems(gold1)}`);
    }
    const untrusted = tripwireProblem(gold1);
    if (untrusted) return reject(untrusted);
    const inconsistent = crossCheck(gold1.testRun.report, gold1.testRun.exec.exitCode);
    if (inconsistent) return reject(`the gold run's report cannot be trusted: ${inconsistent}`);
    const shifted = await attempt('gold-shifted-clock', order.index, { clock: clock.shift });
    if (differences(statuses(gold1), statuses(shifted)).length > 0) {
      const gold3 = await attempt('gold-3', order.index);
      return reject(shiftedClockReason({ gold1: statuses(gold1), shifted: statuses(shifted), gold3: statuses(gold3) }, clock.shift));
    }
    const before = statuses(baseline);
    const passing = gold1.report.tests.filter((t) => t.status === 'pass' && !known.has(t.id)).map((t) => t.id).sort();
    // A test the gold's own change adds outside the graded test files (a doctest in a source
    // file, a unit test in a module) is part of that solution, not of the task: another correct
    // fix need not have it, so it is not required.
    const graded = new Set(gold1.tree.gradedFiles);
    const goldsOwn = new Set(passing.filter((id) => !before.has(id) && !graded.has(testIdFile(id))));
    if (goldsOwn.size > 0) notes.push(`${where}not required: ${list([...goldsOwn])} (added by the gold change outside the task's test files)`);
    const failToPass = passing.filter((id) => before.get(id) !== 'pass' && !goldsOwn.has(id));
    const passToPass = passing.filter((id) => before.get(id) === 'pass');
    if (failToPass.length === 0) return reject(`no test fails on the unchanged repo (the fail-to-pass set is empty)${hint(baseline, baseline2, gold1, gold2, shifted)}`);
    const expected = order.index === 1 ? options.task.manifest.origin?.expected : undefined;
    if (expected) {
      const mismatches = expectedMismatches(expected, { failToPass, passToPass }, gold1.report.tests.map((t) => t.id));
      if (mismatches.length > 0) {
        return reject(`the task's origin.expected lists (the source's fail-to-pass and pass-to-pass tests) differ from what admission found, test by test: ${mismatches.join('; ')}`);
      }
    }
    orders.push({ order: order.index, failToPass, passToPass, observed: observedAt(baseline, failToPass) });
  }
  if (clock.notMoved) notes.push(`date check: only the time zone moved (TZ=${clock.shift.timeZone}), not the clock: ${clock.notMoved}`);
  return { admitted: true, orders, testSec, ...(notes.length > 0 ? { notes } : {}), ...(clock.notMoved ? { clockNotMoved: clock.notMoved } : {}) };
}

/**
 * The shift of the date check for this task: the clock (with bakeoff's sleep fix preloaded,
 * when it could be built) and the time zone, or the time zone only when the clock cannot be
 * moved without breaking the task's runtime (its sleeps fail under this machine's libfaketime,
 * `clockSafety`), with why.
 */
export async function dateCheckClock(language: string, env: Readonly<Record<string, string>>): Promise<{ readonly shift: ClockShift; readonly notMoved?: string }> {
  const sleepFix = await buildSleepFix();
  const safety = await clockSafety(language, { offset: SHIFTED_CLOCK.offset!, path: env.PATH ?? '', sleepFix });
  if (!safety.safe) return { shift: { timeZone: SHIFTED_CLOCK.timeZone }, notMoved: safety.why };
  return { shift: sleepFix ? { ...SHIFTED_CLOCK, sleepFix } : SHIFTED_CLOCK };
}

/** How the fail-to-pass tests ran on the unchanged repo: status and failure message each (a missing test's, its file's error). */
function observedAt(baseline: GradedTests, failToPass: readonly string[]): ObservedTest[] {
  const byId = new Map(baseline.report.tests.map((t) => [t.id, t] as const));
  return failToPass.map((id): ObservedTest => {
    const t = byId.get(id);
    if (t === undefined || t.status === 'pass') {
      const file = byId.get(testIdFile(id));
      return { id, status: 'missing', ...(file?.status === 'error' && file.message !== undefined ? { message: file.message } : {}) };
    }
    return { id, status: t.status, ...(t.message !== undefined ? { message: t.message } : {}) };
  });
}

/**
 * Runs the tests on the prepared repo + gold changes 1..goldUpTo + hidden files 1..order, the
 * way grading runs them (the suite's test files, tripwires, graded files immutable).
 */
async function testWithGold(
  options: AdmitOptions,
  label: string,
  order: number,
  goldUpTo: number,
  extra: { network?: 'none' | 'host'; clock?: ClockShift; timeoutMs: number; templateIds: readonly string[]; knownIds: readonly string[] },
): Promise<GradedTests> {
  const scratch = path.join(options.scratchDir, label);
  const workspace = await workspaceWithGold({
    task: options.task,
    preparedRepo: options.preparedRepo,
    scratchDir: path.join(scratch, 'w'),
    workspace: options.isolation.workspace,
    goldUpTo,
  });
  try {
    const changed: string[] = [];
    for (const o of options.task.orders.filter((o) => o.index <= goldUpTo)) {
      changed.push(...(await patchPaths(options.preparedRepo, await readFile(o.goldPatchPath, 'utf8'))).paths);
    }
    return await runGradedTests({
      sandbox: options.isolation.sandbox,
      repoDir: workspace.dir,
      preparedRepo: options.preparedRepo,
      test: options.task.manifest.test,
      hiddenDirs: options.task.orders.filter((o) => o.index <= order).map((o) => o.hiddenDir),
      expectedIds: [],
      templateIds: extra.templateIds,
      knownIds: extra.knownIds,
      changedPaths: [...new Set(changed)],
      outDir: path.join(scratch, 'out'),
      scratchDir: scratch,
      env: options.env,
      timeoutMs: extra.timeoutMs,
      outputBytes: options.outputBytes,
      network: extra.network ?? 'none',
      ...(extra.clock ? { clock: extra.clock } : {}),
    });
  } finally {
    await workspace.dispose();
  }
}

/** What is wrong with the task's `knownFailures` list, or null: each must fail with and without the gold change. */
function checkKnownFailures(known: ReadonlySet<string>, gold: GradedTests, baseline: GradedTests): string | null {
  const goldStatus = statuses(gold);
  const before = statuses(baseline);
  for (const id of known) {
    if (!goldStatus.has(id) && !before.has(id)) return `knownFailures: no test has the id ${JSON.stringify(id)} (the runner reported ${list([...goldStatus.keys()])})`;
    if (goldStatus.get(id) === 'pass') return `knownFailures: ${JSON.stringify(id)} passes with the gold patch; remove it from the list`;
    if (before.get(id) === 'pass') return `knownFailures: ${JSON.stringify(id)} passes on the unchanged repo; remove it from the list`;
  }
  return null;
}

/** Why the gold run's tripwires say its report cannot be trusted, or null. */
function tripwireProblem(run: GradedTests): string | null {
  const { tree, tripwires, gradedChanged } = run;
  if (tree.tripwires.length === 0 && tree.groups.length === 0 && tree.unwired.length === 0) {
    return "bakeoff could not place its tripwire tests: no hidden file (nor any file of the repo) is a test file by the runner's file patterns; name the test files with task.yaml test.files";
  }
  if (run.testRun.report.unreadable !== undefined) return `the gold run's report cannot be read: ${run.testRun.report.unreadable}`;
  if (gradedChanged.length > 0) return `the tests change graded test files while they run (${list(gradedChanged)}); graded test files are read-only during grading`;
  const wrong = [...tripwires.flipped, ...tripwires.wrong];
  const inGroups = wrong.filter((w) => tree.groups.some((g) => w.startsWith(`${g.template} (`)));
  if (inGroups.length > 0) {
    // a copy expecting another value passed too: that assertion does not decide its test
    return `bakeoff's tripwire copies of fail-to-pass tests (the test itself and copies whose equality assertion expects other values) did not come out as they must on the gold run (${list(inGroups)}): the assertion at that line must compare exactly (no custom equality, no approximate match) and give the same result every time`;
  }
  if (wrong.length > 0) {
    const files = [...new Set([...tree.tripwires.map((t) => t.file), ...tree.groups.map((g) => g.file)])];
    return `bakeoff's tripwire tests, added to ${list(files)}, did not run as they must on the gold run (${list(wrong)}): the test command must collect those files (task.yaml test.files names them)`;
  }
  return null;
}

function statuses(run: GradedTests): Map<string, TestStatus> {
  return new Map(run.report.tests.map((t) => [t.id, t.status]));
}

function problems(run: GradedTests): string {
  return run.report.problems.length > 0 ? ` (${run.report.problems.slice(0, 2).join('; ')})` : '';
}
