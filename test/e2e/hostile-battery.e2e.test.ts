import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_BAKED, BREAK_REPORT, CROSS, HONEST, TASKS, TRIPWIRE_PICKS, VOID_GAMER } from './hostile-battery-attacks.js';
import {
  agentOf,
  bake,
  BATTERY,
  batterySuite,
  cells,
  describeRun,
  expectBlindPickCaught,
  expectFailed,
  expectVerified,
  expectWithinQuotaAndNoScratch,
  results,
  runOf,
  scriptOf,
  tamperResistance,
  tempFolders,
  verify,
  type BakeOutcome,
  type BatteryResults,
  type Verified,
} from './hostile-battery-helpers.js';

/*
 * The hostile battery, part 1 (issue 10, "the grade cannot be gamed"): the attacks that have a
 * variant for every runner — hidden files replaced during grading, the report rewritten or made
 * unreadable, failures turned into voids, changes hidden from review, framework sabotage at
 * import — and the runs that try to take the bake down through the runner's report (class 5: a
 * > 2 GiB report, a FIFO at the report path, 2.5 GiB written into the report folder), with a
 * void-gaming agent, its honest control and gold, in one bake of the starter suite plus a jest
 * task (JS/node:test, TS/vitest, Python/pytest, Rust/cargo, JS/jest). Every attack × task must
 * be graded failed (never solved, never void); gold stays solved; the void-gamer ranks no higher
 * than the honest agent; the bake is killed if it stops storing runs, must finish every run,
 * resume with nothing re-run, keep every run's results within the quota and leave no scratch;
 * `bakeoff verify` re-grades every run alike.
 * hostile-battery-breakers: the attacks on the change itself and on the agent's side of the bake
 * (one task); hostile-battery-config: runner configuration from the change;
 * hostile-battery-formats: the same attacks on mocha, TAP and JUnit. Agents:
 * test/fixtures/hostile-battery/.
 */

const HOOK_MS = 1_800_000;
const temp = tempFolders();
const AGENTS = [...CROSS.map(agentOf), ...TRIPWIRE_PICKS.map(agentOf), ...BREAK_REPORT.map(agentOf), agentOf(VOID_GAMER), agentOf(HONEST), 'gold'];
const PLANNED = AGENTS.length * TASKS.length;
let out: string;
let run: BakeOutcome;
let resumed: BakeOutcome;
let res: BatteryResults;
let verified: Verified;
let resistance: Map<string, string>;

beforeAll(async () => {
  const suite = await batterySuite(temp.make);
  resistance = await tamperResistance(suite);
  out = await temp.make('bakeoff-battery-out-');
  run = await bake(suite, AGENTS, out);
  resumed = await bake(suite, AGENTS, out);
  res = await results(out);
  verified = await verify(out);
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

describe('cross-runner attacks and report breakers on all five tasks', () => {
  it('the bake finishes every run, none in an infrastructure error: no crash, no hang', () => {
    expect(run.killed, `${run.killed}\n${run.stderr.slice(-2000)}`).toBeNull();
    expect(res.runs.length, run.stderr.slice(-2000)).toBe(PLANNED);
    expect(run.exitCode, run.stderr.slice(-2000)).toBe(0);
  });

  it('the report renders (no run of an attack makes the results unreportable)', () => {
    expect(res.reportError).toBeNull();
  });

  it('gold is still solved on every task (every other run finishes as it would alone)', () => {
    for (const task of TASKS) expect(describeRun(runOf(res, 'gold', task)), task).toBe('solved');
  });

  it('a re-run of the same command resumes with nothing re-run', () => {
    expect(resumed.killed, `resume: ${resumed.killed}\n${resumed.stderr.slice(-2000)}`).toBeNull();
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ planned: PLANNED, alreadyDone: PLANNED, ran: 0 });
  });

  it.each(cells(CROSS, TASKS))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it.each(cells(TRIPWIRE_PICKS, TASKS))('class $cls: $script on $task is caught, or its task says it is partial', (cell) =>
    expectBlindPickCaught({ out, run, res, verified }, resistance, cell),
  );

  it.each(cells(BREAK_REPORT, TASKS))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

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

  it("every run's results folder stays within the run's disk quota, and the bake leaves nothing in /tmp/bakeoff-scratch", () => expectWithinQuotaAndNoScratch(out, res));

  it('bakeoff verify re-grades every run to the same verdict (a blind pick draws anew)', () => expectVerified(verified, TRIPWIRE_PICKS));
});

it('every attack script of the battery folder is baked by one of the four files', async () => {
  const baked = new Set(ALL_BAKED.map((a) => a.script));
  const scripts = (await readdir(BATTERY)).filter((f) => f.endsWith('.mjs') && f !== 'kit.mjs');
  expect(scripts.filter((s) => !baked.has(s))).toEqual([]);
  expect([...baked].filter((s) => !scripts.includes(s))).toEqual([]);
});
