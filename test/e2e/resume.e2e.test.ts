import { readdir } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { bakeoff, BIN, tempDir } from './helpers.js';
import { validatedTiny } from './tiny-suite.js';

function countRuns(db: string): number {
  try {
    const conn = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (conn.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
    } finally {
      conn.close();
    }
  } catch {
    return 0;
  }
}

describe('a bake killed with SIGKILL', () => {
  it('loses no finished run and records every run exactly once after re-running', async () => {
    const suite = await validatedTiny();
    const tasks = (await readdir(path.join(suite, 'tasks'))).length;
    const out = await tempDir();
    const args = ['run', suite, '--agent', 'command:sleep 0.4', '--agent', 'noop', '--runs', '3', '--concurrency', '1', '--out', out, '--json'];
    const planned = tasks * 2 * 3;
    const db = path.join(out, 'bakeoff.db');

    const first = execa('node', [BIN, ...args], { reject: false });
    const deadline = Date.now() + 120_000;
    while (countRuns(db) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    first.kill('SIGKILL');
    await first;
    const afterKill = countRuns(db);
    expect(afterKill).toBeGreaterThanOrEqual(2);
    expect(afterKill).toBeLessThan(planned);

    const second = await bakeoff(args);
    expect(second.exitCode, second.stderr).toBe(0);
    const summary = JSON.parse(second.stdout) as { planned: number; alreadyDone: number; ran: number };
    expect(summary.planned).toBe(planned);
    expect(summary.alreadyDone).toBeGreaterThanOrEqual(afterKill);
    expect(summary.alreadyDone + summary.ran).toBe(planned);

    const conn = new Database(db, { readonly: true });
    const rows = conn.prepare('SELECT id, (SELECT count(*) FROM sessions s WHERE s.run_id = r.id) AS sessions FROM runs r').all() as { id: string; sessions: number }[];
    conn.close();
    expect(rows).toHaveLength(planned);
    expect(new Set(rows.map((r) => r.id)).size).toBe(planned);
    for (const row of rows) expect(row.sessions).toBeGreaterThan(0);
    const artifacts = await readdir(path.join(out, 'runs'));
    expect(artifacts.filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    expect(new Set(artifacts)).toEqual(new Set(rows.map((r) => r.id)));

    const third = await bakeoff(args);
    expect(JSON.parse(third.stdout)).toMatchObject({ alreadyDone: planned, ran: 0 });
  });
});
