import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bakeoff } from './helpers.js';
import { BREAK_AGENT_SIDE, CHANGE_SIDE, CHANGE_SIDE_TASK, ESCAPE_NAME } from './hostile-battery-attacks.js';
import {
  agentOf,
  bake,
  batterySuite,
  cells,
  describeRun,
  expectFailed,
  expectWithinQuotaAndNoScratch,
  results,
  runOf,
  suiteWithTasks,
  tempFolders,
  type BakeOutcome,
  type BatteryResults,
} from './hostile-battery-helpers.js';

/*
 * The hostile battery, part 2: what bakeoff does with the change and the agent's output before
 * any runner runs — the same code path whatever the task's runner, so baked on one task, in one
 * bake, on a terminal (a pty, no --json), as an operator sees it:
 *   - attacks on the change itself (issue 10 classes 3 and 4, issue 30): a nested repository, a
 *     failing exit, a non-UTF-8 name, .gitattributes hiding lines from review, CR line ends,
 *     absurd workspaces (a path past PATH_MAX, folders 100 deep, 500 000 files), code hidden in
 *     names, a link target or behind U+2028;
 *   - runs that try to take the bake down (class 5): a 2.25 GiB agent output, a 600 MiB change,
 *     a 2 GiB sparse file, and a file name with terminal escapes;
 *   - gold and noop beside them.
 * Every attack run is graded failed (with its reason where one is named, and at least the lines
 * to review of its payload where the issue counts them); gold stays solved and noop failed; the
 * bake is killed if it stops storing runs, must finish every run, resume with nothing re-run,
 * keep every run's results within the quota and leave no scratch; nothing of the escape name
 * reaches `bakeoff run` (on a terminal), report or verify unescaped; `bakeoff verify` re-grades
 * every run alike. The report breakers (a variant per runner) are baked on all five tasks in
 * hostile-battery.e2e. Agents: test/fixtures/hostile-battery/ (README: the table).
 */

const HOOK_MS = 1_800_000;
const ESC = '\u001b';
const temp = tempFolders();
const ATTACKS = [...CHANGE_SIDE, ...BREAK_AGENT_SIDE, ESCAPE_NAME];
const AGENTS = [...ATTACKS.map(agentOf), 'gold', 'noop'];
let out: string;
let first: BakeOutcome;
let resumed: BakeOutcome;
let res: BatteryResults;

beforeAll(async () => {
  const suite = await suiteWithTasks(temp.make, await batterySuite(temp.make), [CHANGE_SIDE_TASK]);
  out = await temp.make('bakeoff-battery-out-');
  // no --json, on a pty: what `bakeoff run` prints on an operator's terminal (the escape name's check)
  first = await bake(suite, AGENTS, out, { json: false, tty: true });
  resumed = await bake(suite, AGENTS, out);
  res = await results(out);
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

/** The escape-name attack's own sequences (window title, clear screen, red), if any text holds them raw. */
function rawEscapes(texts: readonly string[]): string[] {
  const sequences = [`${ESC}]0;BATTERY-TITLE`, `${ESC}[2J`, `${ESC}[1;31m`];
  return texts.flatMap((t) => sequences.filter((q) => t.includes(q)).map((q) => JSON.stringify(t.slice(Math.max(0, t.indexOf(q) - 100), t.indexOf(q) + 60))));
}

describe(`attacks on the change and on the bake before any runner, on ${CHANGE_SIDE_TASK}`, () => {
  it('the bake finishes: no crash, no hang, every run stored', () => {
    expect(first.killed, `first bake: ${first.killed}\n${first.stderr.slice(-2000)}`).toBeNull();
    expect(first.exitCode, first.stdout.slice(-2000)).toBe(0);
    expect(res.runs.length, first.stdout.slice(-2000)).toBe(AGENTS.length);
  });

  it('every other run finishes as it would alone: gold solved, noop failed', () => {
    expect(describeRun(runOf(res, 'gold', CHANGE_SIDE_TASK)), 'gold').toBe('solved');
    expect(runOf(res, 'noop', CHANGE_SIDE_TASK)?.outcome, 'noop').toBe('failed');
  });

  it('a re-run of the same command resumes with nothing re-run', () => {
    expect(resumed.killed, `resume: ${resumed.killed}\n${resumed.stderr.slice(-2000)}`).toBeNull();
    expect(resumed.exitCode, resumed.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ planned: AGENTS.length, alreadyDone: AGENTS.length, ran: 0 });
  });

  it.each(cells(ATTACKS, [CHANGE_SIDE_TASK]))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it("every run's results folder stays within the run's disk quota, and the bake leaves nothing in /tmp/bakeoff-scratch", () => expectWithinQuotaAndNoScratch(out, res));

  it('bakeoff verify re-grades every run to the same verdict, and no escape of a file name reaches bakeoff run (on a terminal), report or verify unescaped', async () => {
    expect(runOf(res, ESCAPE_NAME.script, CHANGE_SIDE_TASK), 'the escape-name run is stored').toBeDefined();
    const shown = [first.stdout, first.stderr];
    for (const format of ['table', 'md']) {
      const r = await bakeoff(['report', out, '--format', format]);
      shown.push(r.stdout, r.stderr);
    }
    // as an operator reads it (no --json); exit 0: every run re-graded, none mismatched (1: a mismatch, 3: a run not re-graded)
    const v = await bakeoff(['verify', out, '--concurrency', '3']);
    shown.push(v.stdout, v.stderr);
    expect(v.exitCode, `${v.stdout.slice(-3000)}\n${v.stderr.slice(-1500)}`).toBe(0);
    expect(v.stdout, v.stdout.slice(-3000)).toMatch(new RegExp(`verified ${AGENTS.length} runs: 0 mismatches`));
    expect(rawEscapes(shown)).toEqual([]);
  }, HOOK_MS);
});
