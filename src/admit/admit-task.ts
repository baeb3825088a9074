import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { crossCheck, runGradedTests, type GradedTests, type TestStatus } from '../grade/index.js';
import { patchPaths, type Isolation, type ClockShift } from '../sandbox/index.js';
import type { OrderAdmission, Task, TaskAdmission } from '../suite/index.js';

export type { OrderAdmission, TaskAdmission } from '../suite/index.js';
import { workspaceWithGold } from './workspace-with-gold.js';

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
}

/**
 * Proves a task fit to measure, order by order: the hidden tests give per-test results; on the
 * unchanged repo at least one fails; with the gold change every test passes, twice the same
 * way (not flaky), with no network, and the same under a shifted clock and time zone.
 */
export async function admitTask(options: AdmitOptions): Promise<TaskAdmission> {
  const orders: OrderAdmission[] = [];
  const notes: string[] = [];
  let testSec = 0;
  for (const order of options.task.orders) {
    const attempt = async (label: string, goldUpTo: number, extra: { network?: 'none' | 'host'; clock?: ClockShift } = {}): Promise<GradedTests> => {
      return testWithGold(options, `${order.index}-${label}`, order.index, goldUpTo, extra);
    };
    const where = options.task.orders.length > 1 ? `order ${order.index}: ` : '';
    const reject = (reason: string): TaskAdmission => ({ admitted: false, reason: where + reason });

    const baseline = await attempt('baseline', order.index - 1);
    if (baseline.report.tests.length === 0) {
      return reject(`the tests produced no per-test results on the unchanged repo${problems(baseline)} (see ${baseline.testRun.outputPath})`);
    }
    // the unchanged repo runs twice too: a test that fails there only sometimes would become
    // fail-to-pass, required of every agent
    const baseline2 = await attempt('baseline-2', order.index - 1);
    const baselineDrift = differences(statuses(baseline), statuses(baseline2));
    if (baselineDrift.length > 0) {
      return reject(`flaky on the unchanged repo: two runs disagree on ${disagreement(baselineDrift, baseline, baseline2)}`);
    }
    const gold1 = await attempt('gold-1', order.index);
    testSec += gold1.testRun.exec.durationMs / 1000;
    const testEdits = [...gold1.tree.restored, ...gold1.tree.removed];
    if (testEdits.length > 0) {
      return reject(`the gold patch changes test files (${list(testEdits)}); graded runs always use the suite's test files, so test changes belong in orders/${order.index}/hidden/`);
    }
    const gold2 = await attempt('gold-2', order.index);
    const drift = differences(statuses(gold1), statuses(gold2));
    if (drift.length > 0) return reject(`flaky: two gold runs disagree on ${disagreement(drift, gold1, gold2)}`);
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
        return reject(`the gold run produced no per-test results${problems(gold1)}; the test command must run the hidden tests (see test-output.log of the gold run)`);
      }
      return reject(`the gold patch does not make every test pass: ${list(failing)}${problems(gold1)}`);
    }
    const untrusted = tripwireProblem(gold1);
    if (untrusted) return reject(untrusted);
    const inconsistent = crossCheck(gold1.testRun.report, gold1.testRun.exec.exitCode);
    if (inconsistent) return reject(`the gold run's report cannot be trusted: ${inconsistent}`);
    const shifted = await attempt('gold-shifted-clock', order.index, { clock: SHIFTED_CLOCK });
    const dateDrift = differences(statuses(gold1), statuses(shifted));
    if (dateDrift.length > 0) {
      return reject(`depends on the date or time zone: ${list(dateDrift)} change under TZ=${SHIFTED_CLOCK.timeZone} with the clock moved ${SHIFTED_CLOCK.offset}`);
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
    if (failToPass.length === 0) return reject('no test fails on the unchanged repo (the fail-to-pass set is empty)');
    orders.push({ order: order.index, failToPass, passToPass });
  }
  return { admitted: true, orders, testSec, ...(notes.length > 0 ? { notes } : {}) };
}

/**
 * The file a test id names: `doc::src/lib.rs - item` → `src/lib.rs` (rustdoc), else the part
 * before the first `::` (every runner's ids start with the file; a whole-file id is the file).
 */
export function testIdFile(id: string): string {
  if (id.startsWith('doc::')) return id.slice(5).split(' - ')[0]!;
  return id.split('::')[0]!;
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
  extra: { network?: 'none' | 'host'; clock?: ClockShift },
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
      changedPaths: [...new Set(changed)],
      outDir: path.join(scratch, 'out'),
      scratchDir: scratch,
      env: options.env,
      timeoutMs: options.testTimeoutMs,
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

/** The ids two runs disagree on, with each run's status: `t1 (fail, then pass)`. */
function disagreement(ids: readonly string[], a: GradedTests, b: GradedTests): string {
  const sa = statuses(a);
  const sb = statuses(b);
  return list(ids.map((id) => `${id} (${sa.get(id) ?? 'missing'}, then ${sb.get(id) ?? 'missing'})`));
}

/** Why the gold run's tripwires say its report cannot be trusted, or null. */
function tripwireProblem(run: GradedTests): string | null {
  const { tree, tripwires, gradedChanged } = run;
  if (tree.tripwires.length === 0 && tree.unwired.length === 0) {
    return "bakeoff could not place its tripwire tests: no hidden file (nor any file of the repo) is a test file by the runner's file patterns; name the test files with task.yaml test.files";
  }
  if (run.testRun.report.unreadable !== undefined) return `the gold run's report cannot be read: ${run.testRun.report.unreadable}`;
  if (gradedChanged.length > 0) return `the tests change graded test files while they run (${list(gradedChanged)}); graded test files are read-only during grading`;
  const wrong = [...tripwires.flipped, ...tripwires.wrong];
  if (wrong.length > 0) {
    return `bakeoff's tripwire tests, added to ${list(tree.tripwires.map((t) => t.file))}, did not run as they must on the gold run (${list(wrong)}): the test command must collect those files (task.yaml test.files names them)`;
  }
  return null;
}

function statuses(run: GradedTests): Map<string, TestStatus> {
  return new Map(run.report.tests.map((t) => [t.id, t.status]));
}

function differences(a: ReadonlyMap<string, TestStatus>, b: ReadonlyMap<string, TestStatus>): string[] {
  const ids = new Set([...a.keys(), ...b.keys()]);
  return [...ids].filter((id) => a.get(id) !== b.get(id)).sort();
}

function list(ids: readonly string[]): string {
  return ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;
}

function problems(run: GradedTests): string {
  return run.report.problems.length > 0 ? ` (${run.report.problems.slice(0, 2).join('; ')})` : '';
}
