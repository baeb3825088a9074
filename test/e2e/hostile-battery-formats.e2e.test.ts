import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BREAK_REPORT, CONTROL_SITE, CONTROL_SITE_TASKS, CROSS, FORMAT_TASKS, FORMATS, TRIPWIRE_PICKS, type Attack, type FormatTaskId } from './hostile-battery-attacks.js';
import {
  agentOf,
  bakeAndVerify,
  cells,
  describeRun,
  expectBlindPickCaught,
  expectFailed,
  expectVerified,
  expectWithinQuotaAndNoScratch,
  runOf,
  suiteWithTasks,
  tamperResistance,
  tempFolders,
  type VerifiedBake,
} from './hostile-battery-helpers.js';
import { runnersSuite } from './runners-suite.js';

/*
 * The hostile battery, part 4 (issue 14): the formats whose configuration or report is new.
 * First the attacks every runner has a variant of (the cross-runner ones of part 1 — framework
 * sabotage at import, hidden tests rewritten or their folder swapped, the report rewritten at
 * exit or by a background process, replaced by a symlink or a folder, a FIFO beside it, a flood
 * at exit, a packed payload — and the report breakers — a 2.25 GiB report, a FIFO nobody
 * writes, the report folder filled) on the mocha, tape and JUnit (pytest --junitxml) tasks, with
 * gold, in one bake. Beside it, each format's own attacks, baked on its task alone, one bake
 * after the other, one run at a time: mocha's configuration from the change, TAP lines the code
 * under test prints into the report, a JUnit report planted before grading or rewritten at exit.
 * Every attack run must be graded failed (never solved, never void), with the reason named where
 * one is; gold stays solved; the bake stays within its quotas and leaves no scratch; `bakeoff
 * verify` re-grades them alike (each bake verified as soon as it ends). The tripwire-control-site
 * attack acts on pytest alone of the three (hostile-battery-attacks' CONTROL_SITE): baked in the
 * JUnit task's own bake, caught or its task partial.
 * Agents: test/fixtures/hostile-battery/ (kit.mjs has each runner's variant).
 */

const HOOK_MS = 1_800_000;
const temp = tempFolders();
const SHARED = [...CROSS, ...BREAK_REPORT];
let shared: VerifiedBake;
let resistance: Map<string, string>;
const bakes = new Map<FormatTaskId, VerifiedBake>();
/** The tripwire-control-site attack where it acts (junit-median's pytest), beside the format's own attacks. */
const picksOn = (task: FormatTaskId): Attack[] => (CONTROL_SITE_TASKS.includes(task) ? [CONTROL_SITE] : []);

// one validated suite; the shared bake three runs at a time, the formats' own bakes one run at a time beside it
beforeAll(async () => {
  const suite = await suiteWithTasks(temp.make, await runnersSuite(await temp.make('bakeoff-formats-suite-')), FORMAT_TASKS);
  resistance = await tamperResistance(suite);
  const own = async (): Promise<void> => {
    for (const task of FORMAT_TASKS) bakes.set(task, await bakeAndVerify(temp.make, await suiteWithTasks(temp.make, suite, [task]), [...FORMATS[task], ...picksOn(task)].map(agentOf), { concurrency: 1 }));
  };
  const [sharedBake] = await Promise.all([bakeAndVerify(temp.make, suite, [...SHARED.map(agentOf), ...TRIPWIRE_PICKS.map(agentOf), 'gold'], { concurrency: 3, idleSec: 240 }), own()]);
  shared = sharedBake;
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

describe('the cross-runner attacks and the report breakers on mocha, TAP and JUnit', () => {
  it('the bake finishes: no crash, no hang, every run stored', () => {
    const { run, res } = shared;
    expect(run.killed, `${run.killed}\n${run.stderr.slice(-2000)}`).toBeNull();
    expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
    expect(res.runs.length, run.stderr.slice(-2000)).toBe((SHARED.length + TRIPWIRE_PICKS.length + 1) * FORMAT_TASKS.length);
  });

  it('gold is still solved on every task', () => {
    for (const task of FORMAT_TASKS) expect(describeRun(runOf(shared.res, 'gold', task)), task).toBe('solved');
  });

  it.each(cells(SHARED, FORMAT_TASKS))('class $cls: $script on $task is graded failed', (cell) => expectFailed(shared.res, cell));

  it.each(cells(TRIPWIRE_PICKS, FORMAT_TASKS))('class $cls: $script on $task is caught, or its task says it is partial', (cell) => expectBlindPickCaught(shared, resistance, cell));

  it("every run's results folder stays within the run's disk quota, and the bake leaves nothing in /tmp/bakeoff-scratch", () => expectWithinQuotaAndNoScratch(shared.out, shared.res));

  it('bakeoff verify re-grades every run to the same verdict (a blind pick draws anew)', () => expectVerified(shared.verified, TRIPWIRE_PICKS));
});

describe.each(FORMAT_TASKS.map((task) => ({ task, attacks: FORMATS[task], picks: picksOn(task) })))('attacks on the format of $task', ({ task, attacks, picks }) => {
  it('the bake finishes every run', () => {
    const { run, res } = bakes.get(task)!;
    expect(run.killed, run.stderr.slice(-2000)).toBeNull();
    expect(res.runs.length, run.stderr.slice(-2000)).toBe(attacks.length + picks.length);
  });

  it.each(cells(attacks, [task]))('class $cls: $script on $task is graded failed', (cell) => expectFailed(bakes.get(task)!.res, cell));

  if (picks.length > 0) {
    it.each(cells(picks, [task]))('class $cls: $script on $task is caught, or its task says it is partial', (cell) => expectBlindPickCaught(bakes.get(task)!, resistance, cell));
  }

  it('bakeoff verify re-grades every run to the same verdict (a blind pick draws anew)', () => expectVerified(bakes.get(task)!.verified, picks));
});
