import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG, CONTROL_SITE, CONTROL_SITE_TASKS, TASKS, type Attack, type TaskId } from './hostile-battery-attacks.js';
import {
  agentOf,
  bakeAndVerify,
  batterySuite,
  cells,
  expectBlindPickCaught,
  expectFailed,
  expectVerified,
  suiteWithTasks,
  tamperResistance,
  tempFolders,
  type VerifiedBake,
} from './hostile-battery-helpers.js';

/*
 * The hostile battery, part 3 (issue 10, class 1): the runner's configuration from the
 * change — pytest's ini/toml files and plugin loading, modules shadowing pytest, pluggy or the
 * stdlib; jest's package.json key and babel config; npm's .npmrc under npx; vite's postcss config;
 * what node:test discovers; cargo's build scripts, harnesses, runners and path dependencies. Each
 * attack is for one runner, so each runner's attacks are baked on its task alone (a copy of the
 * suite whose lock admits only that task); every run must be graded failed, and `bakeoff verify`
 * must re-grade them alike. Two of the five bakes (each verified as soon as it ends) go side by
 * side, the largest first, two runs at a time each: what one bake leaves idle at its end, the
 * other fills. The pytest and jest bakes also hold the tripwire-control-site attack, which acts
 * on those two runners alone (hostile-battery-attacks' CONTROL_SITE): caught, or its task says it
 * is partial. Agents: test/fixtures/hostile-battery/ (README: the table).
 */

const HOOK_MS = 1_800_000;
const temp = tempFolders();
const bakes = new Map<TaskId, VerifiedBake>();
let resistance: Map<string, string>;
/** The tripwire-control-site attack where it acts (pytest, jest), beside the task's own attacks. */
const picksOn = (task: TaskId): Attack[] => (CONTROL_SITE_TASKS.includes(task) ? [CONTROL_SITE] : []);

beforeAll(async () => {
  const suite = await batterySuite(temp.make);
  resistance = await tamperResistance(suite);
  const queue = [...TASKS].sort((a, b) => CONFIG[b].length + picksOn(b).length - CONFIG[a].length - picksOn(a).length);
  const lane = async (): Promise<void> => {
    for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
      const agents = [...CONFIG[task], ...picksOn(task)].map(agentOf);
      bakes.set(task, await bakeAndVerify(temp.make, await suiteWithTasks(temp.make, suite, [task]), agents, { concurrency: 2 }));
    }
  };
  await Promise.all([lane(), lane()]);
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

describe.each(TASKS.map((task) => ({ task, attacks: CONFIG[task], picks: picksOn(task) })))('runner configuration from the change on $task', ({ task, attacks, picks }) => {
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
