import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
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

  async function bakeWith(file: string, extra: readonly string[] = [], out?: string): Promise<JsonReport> {
    out ??= await tempDir();
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

  it('stores the refusal as change-refused.json, and verify re-judges it; an old folder with change-refused.txt verifies too', async () => {
    const broken = 'diff --git a/src/math.mjs b/src/math.mjs\n--- a/src/math.mjs\n+++ b/src/math.mjs\n@@ -1 +1 @@\n-this line is not there\n+nor this\n';
    const out = await tempDir();
    const report = await bakeWith(await predictions([{ task: 'add', order: 1, patch: broken }]), [], out);
    expect(report.runs[0]!.failReason).toBe('patch-did-not-apply');
    const db = new Database(path.join(out, 'bakeoff.db'));
    const { id } = db.prepare('SELECT id FROM runs').get() as { id: string };
    db.close();
    const order = path.join(out, 'runs', id, 'order-1');
    const stored = JSON.parse(await readFile(path.join(order, 'change-refused.json'), 'utf8')) as { reason: string; message: string; paths: string[] };
    expect(stored).toMatchObject({ schemaVersion: 1, reason: 'patch-did-not-apply', paths: [] });
    expect(`order 1: ${stored.message}`).toBe(report.runs[0]!.outcomeDetail);
    const verified = await bakeoff(['verify', out, '--json']);
    expect(verified.exitCode, verified.stdout + verified.stderr).toBe(0);

    // the same folder as bakeoff wrote it before the JSON form: change-refused.txt, `<reason>: <message>`, and its checksum
    const old = `${stored.reason}: ${stored.message}\n`;
    await rm(path.join(order, 'change-refused.json'));
    await writeFile(path.join(order, 'change-refused.txt'), old);
    const rows = new Database(path.join(out, 'bakeoff.db'));
    rows.prepare("UPDATE artifacts SET path = 'order-1/change-refused.txt', sha256 = ?, bytes = ? WHERE run_id = ? AND path = 'order-1/change-refused.json'")
      .run(createHash('sha256').update(old).digest('hex'), Buffer.byteLength(old), id);
    rows.close();
    const again = await bakeoff(['verify', out, '--json']);
    expect(again.exitCode, again.stdout + again.stderr).toBe(0);

    // and a refusal that says another thing than the bake is a mismatch: verify reads it, it does not skip it
    const forged = `change-too-large: ${stored.message}\n`;
    await writeFile(path.join(order, 'change-refused.txt'), forged);
    const rows2 = new Database(path.join(out, 'bakeoff.db'));
    rows2.prepare("UPDATE artifacts SET sha256 = ?, bytes = ? WHERE run_id = ? AND path = 'order-1/change-refused.txt'").run(createHash('sha256').update(forged).digest('hex'), Buffer.byteLength(forged), id);
    rows2.close();
    const forgedRun = await bakeoff(['verify', out, '--json']);
    expect(forgedRun.exitCode, forgedRun.stdout + forgedRun.stderr).not.toBe(0);
  });
});
