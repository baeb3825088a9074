import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, copySuite, ROOT, tempDir } from './helpers.js';

describe('the starter suite, end to end', () => {
  let suite: string;
  let validate: Awaited<ReturnType<typeof bakeoff>>;
  beforeAll(async () => {
    suite = await copySuite(path.join(ROOT, 'examples/starter'));
    validate = await bakeoff(['validate', suite, '--json']);
  });

  it('admits every task and prints the suite hash', async () => {
    expect(validate.exitCode, validate.stderr).toBe(0);
    const out = JSON.parse(validate.stdout) as { suite: { hash: string }; tasks: { id: string; admitted: boolean; failToPass: number }[] };
    expect(out.suite.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(out.tasks.length).toBeGreaterThanOrEqual(4);
    for (const t of out.tasks) {
      expect(t.admitted, t.id).toBe(true);
      expect(t.failToPass).toBeGreaterThan(0);
    }
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { suite: { hash: string } };
    expect(lock.suite.hash).toBe(out.suite.hash);
    const tasksMd = await readFile(path.join(suite, 'TASKS.md'), 'utf8');
    for (const t of out.tasks) expect(tasksMd).toContain(`| ${t.id} |`);
  });

  it('matches the lock file committed with the example (the hash is machine-independent)', async () => {
    const committed = JSON.parse(await readFile(path.join(ROOT, 'examples/starter/bakeoff.lock.json'), 'utf8')) as unknown;
    const fresh = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as unknown;
    expect(fresh).toEqual(committed);
  });

  it('grades gold solved and noop failed on every task, and reports it as JSON', async () => {
    const out = await tempDir();
    const run = await bakeoff(['run', suite, '--agent', 'gold', '--agent', 'noop', '--runs', '1', '--out', out, '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const report = await bakeoff(['report', out, '--format', 'json']);
    expect(report.exitCode, report.stderr).toBe(0);
    const json = JSON.parse(report.stdout) as {
      suite: { id: string; hash: string };
      agents: { id: string; runs: number; solved: number; solveShare: number; runCountTag: string | null }[];
      runs: { task: string; agent: string; outcome: string; points: number; maxPoints: number; linesAdded: number }[];
    };
    expect(json.suite.id).toBe('starter');
    const gold = json.agents.find((a) => a.id === 'gold')!;
    const noop = json.agents.find((a) => a.id === 'noop')!;
    expect([gold.solved, gold.runs, gold.solveShare]).toEqual([gold.runs, json.runs.length / 2, 1]);
    expect([noop.solved, noop.solveShare]).toEqual([0, 0]);
    expect(gold.runCountTag).toMatch(/1 run/);
    for (const r of json.runs.filter((r) => r.agent === 'gold')) {
      expect(r.outcome).toBe('solved');
      expect(r.points).toBe(r.maxPoints);
      expect(r.linesAdded).toBeGreaterThan(0);
    }
    for (const r of json.runs.filter((r) => r.agent === 'noop')) {
      expect(r.outcome).toBe('failed');
      expect(r.points).toBeLessThan(r.maxPoints);
    }
    const table = await bakeoff(['report', out]);
    expect(table.stdout).toMatch(/1\s+gold/);
    const md = await bakeoff(['report', out, '--format', 'md']);
    expect(md.stdout).toMatch(/\| 1 \| `gold` \|/);
  });

  it('refuses to run a suite that changed since it was validated', async () => {
    const changed = await copySuite(suite);
    const { appendFile } = await import('node:fs/promises');
    const { readdir } = await import('node:fs/promises');
    const task = (await readdir(path.join(changed, 'tasks')))[0]!;
    await appendFile(path.join(changed, 'tasks', task, 'orders', '1', 'prompt.md'), '\nOne more thing.\n');
    const run = await bakeoff(['run', changed, '--agent', 'gold', '--out', await tempDir()]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/suite changed since it was validated/);
  });
});
