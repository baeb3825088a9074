import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff } from './helpers.js';
import { BREAK_AGENT_SIDE, BREAK_AGENT_SIDE_TASK, BREAK_REPORT, ESCAPE_NAME, TASKS } from './hostile-battery-attacks.js';
import {
  agentOf,
  bake,
  batterySuite,
  cells,
  describeRun,
  expectFailed,
  expectVerified,
  expectWithinQuotaAndNoScratch,
  results,
  runOf,
  suiteWithTasks,
  tempFolders,
  type BakeOutcome,
  type BatteryResults,
} from './hostile-battery-helpers.js';

/*
 * The hostile battery, part 3 of 3 (issue 10, class 5): runs that try to take the whole bake
 * down — a 2.25 GiB agent output, a 600 MiB change, a 2 GiB sparse file (acting before any
 * runner, baked on one task), and a > 2 GiB report, a FIFO at the report path, 2.5 GiB written
 * into the report folder (a variant per runner, on all five tasks), plus a file name with
 * terminal escapes. Each bake is killed if it stops storing runs. The bake must finish every
 * other run (gold solved, noop failed), resume with nothing re-run, keep every run's results
 * within the quota, leave no scratch, print nothing unescaped, and verify alike; every attack run
 * is graded failed. Agents: test/fixtures/hostile-battery/ (README: the table).
 */

const HOOK_MS = 1_800_000;
const ESC = '\u001b';
const temp = tempFolders();
let suite: string;

beforeAll(async () => {
  suite = await batterySuite(temp.make);
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

/** The escape-name attack's own sequences (window title, clear screen, red), if any text holds them raw. */
function rawEscapes(texts: readonly string[]): string[] {
  const sequences = [`${ESC}]0;BATTERY-TITLE`, `${ESC}[2J`, `${ESC}[1;31m`];
  return texts.flatMap((t) => sequences.filter((q) => t.includes(q)).map((q) => JSON.stringify(t.slice(Math.max(0, t.indexOf(q) - 100), t.indexOf(q) + 60))));
}

describe.each([
  { name: 'agent output and the change', attacks: BREAK_AGENT_SIDE, tasks: [BREAK_AGENT_SIDE_TASK], controls: ['gold', 'noop'] },
  { name: "the runner's report", attacks: BREAK_REPORT, tasks: [...TASKS], controls: ['gold'] },
])('attacks on the bake through $name', ({ attacks, tasks, controls }) => {
  let out: string;
  let first: BakeOutcome;
  let resumed: BakeOutcome;
  let res: BatteryResults;
  const agents = [...attacks.map(agentOf), ...controls];
  const planned = agents.length * tasks.length;

  beforeAll(async () => {
    const bakeSuite = tasks.length === TASKS.length ? suite : await suiteWithTasks(temp.make, suite, tasks);
    out = await temp.make('bakeoff-battery-out-');
    first = await bake(bakeSuite, agents, out, { idleSec: 120 });
    resumed = await bake(bakeSuite, agents, out, { idleSec: 120 });
    res = await results(out);
  }, HOOK_MS);

  it('the bake finishes: no crash, no hang, every run stored', () => {
    expect(first.killed, `first bake: ${first.killed}\n${first.stderr.slice(-2000)}`).toBeNull();
    expect(first.exitCode, first.stderr.slice(-2000)).toBe(0);
    expect(res.runs.length, first.stderr.slice(-2000)).toBe(planned);
  });

  it('every other run finishes as it would alone: gold solved, noop failed', () => {
    for (const task of tasks) {
      expect(describeRun(runOf(res, 'gold', task)), `gold on ${task}`).toBe('solved');
      if (controls.includes('noop')) expect(runOf(res, 'noop', task)?.outcome, `noop on ${task}`).toBe('failed');
    }
  });

  it('a re-run of the same command resumes with nothing re-run', () => {
    expect(resumed.killed, `resume: ${resumed.killed}\n${resumed.stderr.slice(-2000)}`).toBeNull();
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ planned, alreadyDone: planned, ran: 0 });
  });

  it.each(cells(attacks, tasks))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it("every run's results folder stays within the run's disk quota, and the bake leaves nothing in /tmp/bakeoff-scratch", () => expectWithinQuotaAndNoScratch(out, res));

  it('bakeoff verify re-grades every run to the same verdict', () => expectVerified(out), HOOK_MS);
});

describe('a file name with terminal escape sequences', () => {
  let out: string;
  let first: BakeOutcome;
  let res: BatteryResults;

  beforeAll(async () => {
    out = await temp.make('bakeoff-battery-out-');
    // no --json, on a pty: what `bakeoff run` prints on an operator's terminal
    first = await bake(await suiteWithTasks(temp.make, suite, ['csv-multiline-fields']), [agentOf(ESCAPE_NAME)], out, { json: false, tty: true });
    res = await results(out);
  }, HOOK_MS);

  it('is graded failed', () => expectFailed(res, { ...ESCAPE_NAME, task: 'csv-multiline-fields' }));

  it('reaches no output of bakeoff run (on a terminal), report or verify unescaped', async () => {
    expect(first.killed).toBeNull();
    expect(runOf(res, ESCAPE_NAME.script, 'csv-multiline-fields'), 'the run is stored').toBeDefined();
    const shown = [first.stdout, first.stderr];
    for (const format of ['table', 'md']) {
      const r = await bakeoff(['report', out, '--format', format]);
      shown.push(r.stdout, r.stderr);
    }
    const v = await bakeoff(['verify', out]);
    shown.push(v.stdout, v.stderr);
    expect(rawEscapes(shown)).toEqual([]);
  }, HOOK_MS);
});
