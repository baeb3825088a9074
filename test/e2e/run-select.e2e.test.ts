import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

interface JsonAgent { id: string; runs: number; runCountTag: string | null }
interface JsonReport { agents: JsonAgent[]; runs: { task: string }[] }

/**
 * `run --task` and `--limit` bake part of the admitted tasks, and everything that shows the bake
 * says it is partial: the leaderboard's tag ("1 of 2 tasks"), the JSON, the notes; the same
 * command without them bakes the rest and the tag goes.
 */
describe('bakeoff run --task / --limit', () => {
  let suite = '';
  beforeAll(async () => {
    suite = await validatedTiny();
  }, 600_000);

  it('--task runs that task only, refuses an id the suite does not have, and labels the bake partial until the rest is baked', async () => {
    const out = path.join(await tempDir(), 'results');
    const unknown = await bakeoff(['run', suite, '--agent', 'gold', '--task', 'nope', '--out', out]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('bakeoff: --task: expected a task id of the suite (add, py-add), received "nope"');
    const part = await bakeoff(['run', suite, '--agent', 'gold', '--task', 'py-add', '--out', out, '--json']);
    expect(part.exitCode, part.stderr).toBe(0);
    expect(part.stderr).toMatch(/running 1 of the suite's admitted tasks \(py-add\)/);
    const json = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as JsonReport;
    expect(json.runs.map((r) => r.task)).toEqual(['py-add', 'py-add']);
    expect(json.agents.map((a) => a.runCountTag)).toEqual(['1 of 2 tasks']);
    const table = await bakeoff(['report', out]);
    expect(table.stdout).toMatch(/2 \(1 of 2 tasks\)/);

    const rest = await bakeoff(['run', suite, '--agent', 'gold', '--out', out, '--json']);
    expect(rest.exitCode, rest.stderr).toBe(0);
    const whole = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as JsonReport;
    expect(whole.runs.map((r) => r.task).sort()).toEqual(['add', 'add', 'py-add', 'py-add']);
    expect(whole.agents.map((a) => a.runCountTag)).toEqual([null]);
  }, 600_000);

  it('--limit N runs the first N admitted tasks in suite order', async () => {
    const out = path.join(await tempDir(), 'results');
    const part = await bakeoff(['run', suite, '--agent', 'noop', '--limit', '1', '--out', out, '--json']);
    expect(part.exitCode, part.stderr).toBe(0);
    const json = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as JsonReport;
    expect(json.runs.map((r) => r.task)).toEqual(['add', 'add']);
    expect(json.agents.map((a) => a.runCountTag)).toEqual(['1 of 2 tasks']);
  }, 600_000);
});
