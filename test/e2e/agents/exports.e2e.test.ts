import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { installedClis } from '../../../src/agents/installed-clis.test-support.js';
import { EXPORTERS } from '../../../src/export/index.js';
import { bakeoff, copySuite, FIXTURES, tempDir } from '../helpers.js';
import { readStore } from './agent-helpers.js';

/*
 * `bakeoff export swebench-predictions` and `bakeoff export atif` on a real bake: the tiny
 * suite's JS task marked as a SWE-bench instance (origin kind swebench, id tiny__add-1), run by
 * Claude Code (sandboxed, against the scripted gold model) and by the built-in gold agent. The
 * predictions file goes back in through the `patch:` agent; the trajectories are the recorded
 * session's. It drives a real CLI, so it runs with the agent-CLI files (vitest.config.ts).
 */

const CLAUDE = 'claude-code:claude-sonnet-4-5';

/** The results exporters this file has cases for (export/registry.ts: suite exporters run in importers/conformance.test.ts). */
const COVERED = ['atif', 'swebench-predictions'];

async function outcomes(out: string): Promise<[string, string][]> {
  const report = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as { runs: { task: string; outcome: string }[] };
  return report.runs.map((r) => [r.task, r.outcome]);
}

describe('exports of a results folder', () => {
  it('has cases for every registered results exporter', () => {
    expect(Object.entries(EXPORTERS).filter(([, e]) => e.from === 'results').map(([name]) => name).sort()).toEqual(COVERED);
  });

  let work: string;
  let suite: string;
  let results: string;

  beforeAll(async () => {
    const claude = (await installedClis({ ...process.env, BAKEOFF_MISSING_CLIS: '' })).find((c) => c.name === 'claude-code')!;
    if (claude.problem) throw new Error(claude.problem);
    work = await tempDir('bakeoff-exports-');
    suite = await copySuite(path.join(FIXTURES, 'suites/tiny'));
    await rm(path.join(suite, 'tasks/py-add'), { recursive: true });
    await appendFile(path.join(suite, 'tasks/add/task.yaml'), 'origin:\n  kind: swebench\n  id: tiny__add-1\n');
    const validate = await bakeoff(['validate', suite]);
    expect(validate.exitCode, validate.stderr).toBe(0);
    results = path.join(work, 'results');
    const run = await bakeoff(['run', suite, '--agent', CLAUDE, '--agent', 'gold', '--upstream', 'scripted:gold', '--runs', '1', '--out', results, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
  }, 180_000);

  it('writes a SWE-bench predictions line per agent, and the patch: agent grades them back as solved', async () => {
    const r = await bakeoff(['export', 'swebench-predictions', results]);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { instance_id: string; model_name_or_path: string; model_patch: string });
    expect(lines.map((l) => [l.instance_id, l.model_name_or_path])).toEqual([
      ['tiny__add-1', CLAUDE],
      ['tiny__add-1', 'gold'],
    ]);
    for (const l of lines) expect(l.model_patch).toMatch(/^diff --git a\/src\/math\.mjs b\/src\/math\.mjs/m);

    const preds = path.join(work, 'preds.jsonl');
    const out = await bakeoff(['export', 'swebench-predictions', results, '--agent', CLAUDE, '--out', preds]);
    expect(out.stderr).toContain('wrote 1 prediction to');
    const replay = await bakeoff(['run', suite, '--agent', `patch:${preds}`, '--runs', '1', '--out', path.join(work, 'replayed'), '--json']);
    expect(replay.exitCode, replay.stderr).toBe(0);
    expect((await outcomes(path.join(work, 'replayed')))).toEqual([['add', 'solved']]);

    // SWE-bench's "no patch" (model_patch null) is an empty change: the task fails
    await writeFile(preds, JSON.stringify({ instance_id: 'tiny__add-1', model_name_or_path: 'm', model_patch: null }) + '\n');
    const empty = await bakeoff(['run', suite, '--agent', `patch:${preds}`, '--runs', '1', '--out', path.join(work, 'empty'), '--json']);
    expect(empty.exitCode, empty.stderr).toBe(0);
    expect(await outcomes(path.join(work, 'empty'))).toEqual([['add', 'failed']]);
  }, 120_000);

  it('writes an ATIF trajectory per recorded session: the prompt, the tool calls with their results, the metered tokens', async () => {
    const r = await bakeoff(['export', 'atif', results, '--out', path.join(work, 'atif')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote 1 ATIF trajectory');
    const [runId] = await readdir(path.join(work, 'atif'));
    const t = JSON.parse(await readFile(path.join(work, 'atif', runId!, 'order-1', 'trajectory.json'), 'utf8'));
    expect(t.schema_version).toMatch(/^ATIF-v1\.\d$/);
    expect(t.agent).toMatchObject({ name: 'claude-code', model_name: 'claude-sonnet-4-5' });
    expect(t.steps[0]).toMatchObject({ step_id: 1, source: 'user' });
    expect(t.steps[0].message).toContain('add() subtracts');
    expect(t.steps.map((s: { step_id: number }) => s.step_id)).toEqual(t.steps.map((_: unknown, i: number) => i + 1));
    const call = t.steps.find((s: { tool_calls?: unknown[] }) => s.tool_calls);
    expect(call.tool_calls[0]).toMatchObject({ tool_call_id: 'call-1' });
    expect(call.observation.results[0].source_call_id).toBe('call-1');
    const requests = readStore(results).requests.filter((q) => q.run_id === runId);
    expect(t.final_metrics.total_prompt_tokens).toBe(requests.reduce((n, q) => n + (q.input ?? 0), 0));
    expect(t.final_metrics.total_prompt_tokens).toBeGreaterThan(0);
    expect(t.final_metrics.total_completion_tokens).toBe(requests.reduce((n, q) => n + (q.output ?? 0), 0));
    expect(t.final_metrics.total_steps).toBe(t.steps.length);
  });
});
