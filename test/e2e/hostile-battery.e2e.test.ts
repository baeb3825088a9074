import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_BAKED, CHANGE_SIDE, CHANGE_SIDE_TASK, CROSS, HONEST, TASKS, VOID_GAMER } from './hostile-battery-attacks.js';
import {
  agentOf,
  bake,
  BATTERY,
  batterySuite,
  cells,
  describeRun,
  expectFailed,
  expectVerified,
  results,
  runOf,
  scriptOf,
  suiteWithTasks,
  tempFolders,
  type BakeOutcome,
  type BatteryResults,
} from './hostile-battery-helpers.js';

/*
 * The hostile battery, part 1 of 3 (issue 10, "the grade cannot be gamed"): the attacks that
 * have a variant for every runner — hidden files replaced during grading, the report rewritten
 * or made unreadable, failures turned into voids, changes hidden from review, framework sabotage
 * at import — with a void-gaming agent, its honest control and gold, in one bake of the starter
 * suite plus a jest task (JS/node:test, TS/vitest, Python/pytest, Rust/cargo, JS/jest). Every
 * attack × task must be graded failed (never solved, never void); gold stays solved; the
 * void-gamer ranks no higher than the honest agent; `bakeoff verify` re-grades every run alike.
 * The attacks on the change itself (nested repositories, names, lines to review), which take the
 * same code path whatever the runner, are baked on one task.
 * Parts 2 and 3: hostile-battery-config (runner configuration from the change) and
 * hostile-battery-breakers (attacks on the bake itself). Agents: test/fixtures/hostile-battery/.
 */

const HOOK_MS = 1_800_000;
const temp = tempFolders();
let suite: string;
let out: string;
let run: BakeOutcome;
let res: BatteryResults;

beforeAll(async () => {
  suite = await batterySuite(temp.make);
  out = await temp.make('bakeoff-battery-out-');
  run = await bake(suite, [...CROSS.map(agentOf), agentOf(VOID_GAMER), agentOf(HONEST), 'gold'], out);
  res = await results(out);
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

describe('cross-runner attacks on all five tasks', () => {
  it('the bake finishes every run, none in an infrastructure error', () => {
    expect(run.killed, run.stderr.slice(-2000)).toBeNull();
    expect(res.runs.length, run.stderr.slice(-2000)).toBe((CROSS.length + 3) * TASKS.length);
    expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
  });

  it('the report renders (no run of an attack makes the results unreportable)', () => {
    expect(res.reportError).toBeNull();
  });

  it('gold is still solved on every task', () => {
    for (const task of TASKS) expect(describeRun(runOf(res, 'gold', task)), task).toBe('solved');
  });

  it.each(cells(CROSS, TASKS))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it('the void-gaming agent fails what it does not solve and ranks no higher than the honest one; both show void-as-failed', () => {
    for (const task of TASKS) {
      const expected = task === 'csv-multiline-fields' ? 'solved' : 'failed';
      expect(runOf(res, VOID_GAMER.script, task)?.outcome, `void-gamer on ${task}: ${describeRun(runOf(res, VOID_GAMER.script, task))}`).toBe(expected);
      expect(runOf(res, HONEST.script, task)?.outcome, `honest on ${task}: ${describeRun(runOf(res, HONEST.script, task))}`).toBe(expected);
    }
    expect(res.report, res.reportError ?? '').not.toBeNull();
    expect(res.report!.ranking?.refused, res.report!.ranking?.reason).not.toBe(true);
    const gamer = res.report!.agents.find((a) => scriptOf(a.id) === VOID_GAMER.script)!;
    const honest = res.report!.agents.find((a) => scriptOf(a.id) === HONEST.script)!;
    const both = JSON.stringify({ gamer, honest });
    expect(gamer.rank, both).not.toBeNull();
    expect(gamer.rank!, both).toBeGreaterThanOrEqual(honest.rank!);
    expect(gamer.solveShareVoidAsFail, both).toBeCloseTo(1 / TASKS.length);
    expect(honest.solveShareVoidAsFail, both).toBeCloseTo(1 / TASKS.length);
  });

  it('bakeoff verify re-grades every run to the same verdict', () => expectVerified(out), HOOK_MS);
});

describe(`attacks on the change itself (inspected and counted the same for every runner) on ${CHANGE_SIDE_TASK}`, () => {
  let sideOut: string;
  let sideRun: BakeOutcome;
  let sideRes: BatteryResults;

  beforeAll(async () => {
    sideOut = await temp.make('bakeoff-battery-out-');
    sideRun = await bake(await suiteWithTasks(temp.make, suite, [CHANGE_SIDE_TASK]), CHANGE_SIDE.map(agentOf), sideOut);
    sideRes = await results(sideOut);
  }, HOOK_MS);

  it('the bake finishes every run', () => {
    expect(sideRun.killed, sideRun.stderr.slice(-2000)).toBeNull();
    expect(sideRes.runs.length, sideRun.stderr.slice(-2000)).toBe(CHANGE_SIDE.length);
  });

  it.each(cells(CHANGE_SIDE, [CHANGE_SIDE_TASK]))('class $cls: $script on $task is graded failed', (cell) => expectFailed(sideRes, cell));

  it('bakeoff verify re-grades every run to the same verdict', () => expectVerified(sideOut), HOOK_MS);
});

it('every attack script of the battery folder is baked by one of the four files', async () => {
  const baked = new Set(ALL_BAKED.map((a) => a.script));
  const scripts = (await readdir(BATTERY)).filter((f) => f.endsWith('.mjs') && f !== 'kit.mjs');
  expect(scripts.filter((s) => !baked.has(s))).toEqual([]);
  expect([...baked].filter((s) => !scripts.includes(s))).toEqual([]);
});
