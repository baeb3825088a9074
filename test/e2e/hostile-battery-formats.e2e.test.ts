import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_TASKS, FORMATS, type FormatTaskId } from './hostile-battery-attacks.js';
import { agentOf, bake, cells, expectFailed, expectVerified, results, suiteWithTasks, tempFolders, type BakeOutcome, type BatteryResults } from './hostile-battery-helpers.js';
import { runnersSuite } from './runners-suite.js';

/*
 * The hostile battery, part 4 (issue 14): the formats whose configuration or report is new —
 * mocha's configuration from the change (a required force-pass file through .mocharc.json, a
 * new .mocharc.yml that runs only the visible tests, the `mocha` key of package.json, the file
 * the configuration already requires), TAP lines the code under test prints into the report (a
 * passing test ahead of every real one, failing assertions moved into a decoy test, a whole
 * forged stream and exit 0), a JUnit report planted before grading or rewritten at exit. Each
 * task's attacks are baked on it alone; every run must be graded failed with the reason named,
 * and `bakeoff verify` must re-grade them alike. Agents: test/fixtures/hostile-battery/.
 */

const HOOK_MS = 900_000;
const temp = tempFolders();
const bakes = new Map<FormatTaskId, { out: string; run: BakeOutcome; res: BatteryResults }>();

// the three tasks' bakes run side by side: each waits on its sandboxes most of the time
beforeAll(async () => {
  const suite = await runnersSuite(await temp.make('bakeoff-formats-suite-'));
  await Promise.all(
    FORMAT_TASKS.map(async (task) => {
      const out = await temp.make('bakeoff-formats-out-');
      const run = await bake(await suiteWithTasks(temp.make, suite, [task]), FORMATS[task].map(agentOf), out);
      bakes.set(task, { out, run, res: await results(out) });
    }),
  );
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

describe.each(FORMAT_TASKS.map((task) => ({ task, attacks: FORMATS[task] })))('attacks on the format of $task', ({ task, attacks }) => {
  it('the bake finishes every run', () => {
    const { run, res } = bakes.get(task)!;
    expect(run.killed, run.stderr.slice(-2000)).toBeNull();
    expect(res.runs.length, run.stderr.slice(-2000)).toBe(attacks.length);
  });

  it.each(cells(attacks, [task]))('class $cls: $script on $task is graded failed', (cell) => expectFailed(bakes.get(task)!.res, cell));
});

it('bakeoff verify re-grades every run to the same verdict', () => Promise.all([...bakes.values()].map(({ out }) => expectVerified(out))), HOOK_MS);
