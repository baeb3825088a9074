import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { openSync, writeSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import type { RunRecord } from '../types.js';
import { openStore } from './open-store.js';

const run = (id: string): RunRecord => ({
  id, suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't',
  agent: { id: 'gold', harness: 'builtin', version: null, model: null, effort: null },
  replay: 0, seed: null, level: null, outcome: { kind: 'solved' }, agentSec: 0, gradeSec: 0, costUsd: null,
  tokensIn: null, tokensOut: null, linesAdded: 1, linesRemoved: 0, points: 1, maxPoints: 1,
  orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: {}, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z',
});

/** A results folder with 300 stored runs (a database of many pages), closed. */
async function folderWithRuns(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-check-store-'));
  const store = openStore(dir, { create: true });
  for (let i = 0; i < 300; i++) {
    const tmp = store.artifactsTempDir(`run-${i}`);
    await writeFile(path.join(tmp, 'agent.log'), `run ${i}\n`);
    store.saveRun({ ...run(`run-${i}`), detail: 'x'.repeat(200) } as RunRecord, [], [], tmp);
  }
  store.close();
  await rm(path.join(dir, 'bakeoff.db-wal'), { force: true });
  await rm(path.join(dir, 'bakeoff.db-shm'), { force: true });
  return dir;
}

function overwrite(file: string, offset: number, bytes: number): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(bytes, 0xa5), 0, bytes, offset);
  closeSync(fd);
}

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('a results folder checks itself on open', () => {
  const damage: [string, (db: string) => Promise<void>][] = [
    ['4 KiB overwritten inside the runs table', async (db) => overwrite(db, 3 * 4096, 4096)],
    ['truncated to 8 KiB', async (db) => truncate(db, 8192)],
    ['its header overwritten', async (db) => overwrite(db, 0, 100)],
  ];
  for (const [what, harm] of damage) {
    it(`refuses a database ${what}, for reading and for baking, and leaves its bytes as they were`, async () => {
      const dir = await folderWithRuns();
      const db = path.join(dir, 'bakeoff.db');
      await harm(db);
      const before = await readFile(db);
      for (const create of [false, true]) {
        const message = refusal(() => openStore(dir, { create }));
        expect(message).toContain(`${db}: the results database is damaged (SQLite: `);
        expect(message).toContain('bake into a new folder (--out)');
      }
      expect((await readFile(db)).equals(before)).toBe(true);
    });
  }

  it('refuses an emptied database beside run folders (read or bake) and leaves it empty', async () => {
    const dir = await folderWithRuns();
    const db = path.join(dir, 'bakeoff.db');
    await writeFile(db, '');
    for (const create of [false, true]) {
      const message = refusal(() => openStore(dir, { create }));
      expect(message).toMatch(/the results database is empty, but .*runs holds 300 run folder\(s\)/);
    }
    expect((await readFile(db)).length).toBe(0);
  });

  it('opens a new folder, and one whose runs/ holds only a kill\'s temp folder', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-check-store-'));
    await mkdir(path.join(dir, 'runs', '.tmp-r1-1-1'), { recursive: true });
    const store = openStore(dir, { create: true });
    expect(store.listRuns()).toEqual([]);
    store.close();
    const intact = await folderWithRuns();
    const again = openStore(intact, { create: false });
    expect(again.listRuns()).toHaveLength(300);
    again.close();
  });
});
