import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

interface JsonReport {
  agents: { agent: { id: string }; runs: number; solved: number; runCountTag: string | null }[];
  runs: { task: string; agent: string; outcome: string; failReason: string | null; outcomeDetail: string | null }[];
}

/** `patch:` agents: checked against the suite, run only where their file has work, failing plainly when a patch does not apply. */
describe('patch: agents (changes made elsewhere)', () => {
  let suite: string;
  let goldAdd: string;

  beforeAll(async () => {
    suite = await validatedTiny();
    goldAdd = await readFile(path.join(suite, 'tasks/add/orders/1/gold.patch'), 'utf8');
  });

  async function predictions(lines: readonly object[]): Promise<string> {
    const file = path.join(await tempDir(), 'predictions.jsonl');
    await writeFile(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    return file;
  }

  async function bakeWith(file: string, extra: readonly string[] = []): Promise<JsonReport> {
    const out = await tempDir();
    const r = await bakeoff(['run', suite, '--agent', `patch:${file}`, '--runs', '1', '--out', out, '--json', ...extra]);
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as JsonReport;
  }

  it('refuses a file naming a task or an order the suite lacks, or one (task, order) twice, line by line (exit 2)', async () => {
    const file = await predictions([
      { task: 'add', order: 1, patch: goldAdd },
      { task: 'ad', order: 1, patch: '' },
      { task: 'add', order: 2, patch: '' },
      { task: 'add', order: 1, patch: '' },
    ]);
    const r = await bakeoff(['run', suite, '--agent', `patch:${file}`, '--out', await tempDir()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/predictions\.jsonl:2: task: expected a task of the suite \(add, py-add\), received "ad"/);
    expect(r.stderr).toMatch(/predictions\.jsonl:3: order: expected an order of task add \(1\), received 2/);
    expect(r.stderr).toMatch(/predictions\.jsonl:4: task: expected one line per task and order \(line 1 already has task add, order 1\)/);
  });

  it('runs only on the tasks the file names, and the leaderboard says how many it covered', async () => {
    const report = await bakeWith(await predictions([{ task: 'add', order: 1, patch: goldAdd }]));
    expect(report.runs.map((r) => [r.task, r.outcome])).toEqual([['add', 'solved']]);
    expect(report.agents[0]?.runCountTag).toBe('1 of 2 tasks, 1 run/task');
  });

  it('gives the other tasks empty changes with --patch-missing empty', async () => {
    const report = await bakeWith(await predictions([{ task: 'add', order: 1, patch: goldAdd }]), ['--patch-missing', 'empty']);
    expect(report.runs.map((r) => [r.task, r.outcome]).sort()).toEqual([['add', 'solved'], ['py-add', 'failed']]);
  });

  it('fails a patch that does not apply as patch-did-not-apply, with git\'s message', async () => {
    const broken = 'diff --git a/src/math.mjs b/src/math.mjs\n--- a/src/math.mjs\n+++ b/src/math.mjs\n@@ -1 +1 @@\n-this line is not there\n+nor this\n';
    const report = await bakeWith(await predictions([{ task: 'add', order: 1, patch: broken }]));
    const run = report.runs[0]!;
    expect([run.outcome, run.failReason]).toEqual(['failed', 'patch-did-not-apply']);
    expect(run.outcomeDetail).toMatch(/the patch does not apply: .*(patch failed|does not exist|corrupt)/);
  });
});
