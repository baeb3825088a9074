import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG, TASKS } from './hostile-battery-attacks.js';
import {
  agentOf,
  bake,
  batterySuite,
  cells,
  expectFailed,
  expectVerified,
  results,
  suiteWithTasks,
  tempFolders,
  type BakeOutcome,
  type BatteryResults,
} from './hostile-battery-helpers.js';

/*
 * The hostile battery, part 2 of 3 (issue 10, class 1): the runner's configuration from the
 * change — pytest's ini/toml files and plugin loading, modules shadowing pytest, pluggy or the
 * stdlib; jest's package.json key and babel config; npm's .npmrc under npx; vite's postcss config;
 * what node:test discovers; cargo's build scripts, harnesses, runners and path dependencies. Each
 * attack is for one runner, so each runner's attacks are baked on its task alone (a copy of the
 * suite whose lock admits only that task); every run must be graded failed, and `bakeoff verify`
 * must re-grade them alike. Agents: test/fixtures/hostile-battery/ (README: the table).
 */

const HOOK_MS = 1_800_000;
const temp = tempFolders();
let suite: string;

beforeAll(async () => {
  suite = await batterySuite(temp.make);
}, HOOK_MS);

afterAll(() => temp.dispose(), HOOK_MS);

describe.each(TASKS.map((task) => ({ task, attacks: CONFIG[task] })))('runner configuration from the change on $task', ({ task, attacks }) => {
  let out: string;
  let run: BakeOutcome;
  let res: BatteryResults;

  beforeAll(async () => {
    out = await temp.make('bakeoff-battery-out-');
    run = await bake(await suiteWithTasks(temp.make, suite, [task]), attacks.map(agentOf), out);
    res = await results(out);
  }, HOOK_MS);

  it('the bake finishes every run', () => {
    expect(run.killed, run.stderr.slice(-2000)).toBeNull();
    expect(res.runs.length, run.stderr.slice(-2000)).toBe(attacks.length);
  });

  it.each(cells(attacks, [task]))('class $cls: $script on $task is graded failed', (cell) => expectFailed(res, cell));

  it('bakeoff verify re-grades every run to the same verdict', () => expectVerified(out), HOOK_MS);
});
