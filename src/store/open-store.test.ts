import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import type { RunRecord } from '../types.js';
import { sha256 } from '../util/hash.js';
import { openProbeCache } from '../util/probe-cache.js';
import { BROKEN_KEPT } from './check-tallies.js';
import { knownIntact } from './check-store.js';
import { MIGRATIONS } from './migrations.js';
import { openStore } from './open-store.js';

const run = (id: string): RunRecord => ({
  id, suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't',
  agent: { id: 'gold', harness: 'builtin', version: null, model: null, effort: null },
  replay: 0, seed: null, level: null, outcome: { kind: 'solved' }, agentSec: 0, gradeSec: 0, costUsd: null,
  tokensIn: null, tokensOut: null, linesAdded: 1, linesRemoved: 0, points: 1, maxPoints: 1,
  orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: {}, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z',
});

/** A new results folder whose database a bakeoff of schema `version` made (its first migrations only), open for the test to fill. */
async function oldStore(version: number): Promise<{ dir: string; old: Database.Database }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-store-'));
  const old = new Database(path.join(dir, 'bakeoff.db'));
  for (const sql of MIGRATIONS.slice(0, version)) old.exec(sql);
  old.pragma(`user_version = ${version}`);
  return { dir, old };
}

describe('openStore', () => {
  it('records the checksum of every artifact with the run, in the same save', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-store-'));
    const store = openStore(dir, { create: true });
    const tmp = store.artifactsTempDir('r1');
    await mkdir(path.join(tmp, 'order-1'));
    await writeFile(path.join(tmp, 'order-1', 'change.patch'), 'diff\n');
    store.saveRun(run('r1'), [], [], tmp);
    expect(store.artifactDigests('r1')).toEqual([{ path: 'order-1/change.patch', sha256: sha256('diff\n'), bytes: 5 }]);
    const empty = store.artifactsTempDir('r2');
    store.saveRun(run('r2'), [], [], empty);
    expect(store.artifactDigests('r2')).toEqual([]);
    store.close();
  });

  it('leaves a run void machine-starved out of the finished ones, and replaces it whole when it is redone (decision 011)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-store-'));
    const store = openStore(dir, { create: true });
    const session = { order: 1, exitCode: null, timedOut: true, durationMs: 600_000, tokensIn: 5, tokensOut: 1, costUsd: 0.01, error: null };
    const steps = [{ step: 'session' as const, order: 1, attempt: 1, timedOut: true, limitMs: 600_000, wallMs: 600_000, cpuMs: 900, waitMs: 580_000, heldMs: 570_000, heldFrom: 'pressure' as const, hostPressure: 1, starved: true }];
    const starved: RunRecord = { ...run('r1'), outcome: { kind: 'void', reason: 'machine-starved', detail: 'order 1: no answer within 600 s while …' }, points: 0, orders: [], steps };
    store.saveRun(starved, [session], [{ order: 1, id: 'a', expected: 'fail-to-pass', status: 'missing' }], store.artifactsTempDir('r1'));
    store.saveRun({ ...run('r2'), outcome: { kind: 'void', reason: 'infra-error' } }, [], [], store.artifactsTempDir('r2'));
    expect([...store.finishedRunIds()]).toEqual(['r2']);
    expect(store.listRuns().find((r) => r.id === 'r1')?.steps).toEqual(steps);
    store.saveRun(run('r1'), [{ ...session, timedOut: false }], [], store.artifactsTempDir('r1'));
    expect([...store.finishedRunIds()].sort()).toEqual(['r1', 'r2']);
    expect(store.listRuns().filter((r) => r.id === 'r1').map((r) => r.outcome)).toEqual([{ kind: 'solved' }]);
    expect(store.sessions('r1').map((s) => s.timedOut)).toEqual([false]);
    expect(store.checks('r1')).toEqual([]);
    // any other stored run is never replaced
    expect(() => store.saveRun(run('r2'), [], [], store.artifactsTempDir('r2'))).toThrow();
    store.close();
  });

  it('reads runs with equal outcomes, tasks and suite hashes as one shared value each, and unequal ones apart', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-store-'));
    const store = openStore(dir, { create: true });
    const failed = (id: string, detail?: string): RunRecord => ({ ...run(id), outcome: { kind: 'failed', reason: 'tests-failed', ...(detail ? { detail } : {}) } });
    const saved = [run('a'), run('b'), failed('c', '1 of 2 tests passed'), failed('d', '1 of 2 tests passed'), failed('e', '0 of 2 tests passed'), failed('f'), { ...run('g'), task: 'u' }];
    saved.forEach((r, i) => store.saveRun({ ...r, startedAt: `2026-01-01T00:00:0${i}Z` }, [], [], store.artifactsTempDir(r.id)));
    const runs = new Map(store.listRuns().map((r) => [r.id, r]));
    store.close();
    const got = (id: string) => runs.get(id)!;
    expect([...runs.keys()]).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(saved.map((r) => got(r.id).outcome)).toEqual(saved.map((r) => r.outcome));
    expect(got('a').outcome).toBe(got('b').outcome);
    expect(got('c').outcome).toBe(got('d').outcome);
    expect(got('c').outcome).not.toBe(got('e').outcome);
    expect(got('c').outcome).not.toBe(got('f').outcome);
    // a shared value is frozen: one run's reader cannot change another run
    expect(Object.isFrozen(got('c').outcome)).toBe(true);
    expect(saved.map((r) => got(r.id).task)).toEqual(['t', 't', 't', 't', 't', 't', 'u']);
  });

  it('reads back a run\'s checks, every order, sorted by order and id, a failing test\'s message with it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-store-'));
    const store = openStore(dir, { create: true });
    const checks = [
      { order: 2, id: 'b', expected: 'generated', status: 'pass' },
      { order: 1, id: 'z', expected: 'pass-to-pass', status: 'fail', message: 'AssertionError: expected 2 to be 3' },
      { order: 1, id: 'a', expected: 'fail-to-pass', status: 'missing' },
    ] as const;
    store.saveRun(run('r1'), [], checks, store.artifactsTempDir('r1'));
    store.saveRun(run('r2'), [], [], store.artifactsTempDir('r2'));
    expect(store.checks('r1')).toEqual([checks[2], checks[1], checks[0]]);
    expect(store.checks('r2')).toEqual([]);
    store.close();
  });

  it("counts only failed runs' checks by set and status, with at most the asked number of broken pass-to-pass ids, sorted", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-store-'));
    const store = openStore(dir, { create: true });
    const failed = (id: string): RunRecord => ({ ...run(id), outcome: { kind: 'failed', reason: 'tests-failed' }, points: 0 });
    const p2p = (order: number, id: string, status: 'pass' | 'fail' | 'error') => ({ order, id, expected: 'pass-to-pass', status }) as const;
    store.saveRun(failed('r1'), [], [
      { order: 1, id: 'f', expected: 'fail-to-pass', status: 'fail' },
      p2p(1, 'd', 'fail'), p2p(1, 'b', 'error'), p2p(1, 'c', 'pass'), p2p(2, 'a', 'fail'), p2p(2, 'e', 'fail'),
    ], store.artifactsTempDir('r1'));
    store.saveRun(run('r2'), [], [p2p(1, 'x', 'fail')], store.artifactsTempDir('r2'));
    store.saveRun(failed('r3'), [], [], store.artifactsTempDir('r3'));
    const tallies = store.checkTallies(3);
    expect([...tallies.keys()]).toEqual(['r1']);
    expect(tallies.get('r1')).toEqual({
      failToPass: { passed: 0, total: 1, errored: 0 },
      passToPass: { passed: 1, total: 5, errored: 1, broken: ['a', 'b', 'd'] },
      generated: { passed: 0, total: 0, errored: 0 },
    });
    expect(store.checkTallies(10).get('r1')!.passToPass.broken).toEqual(['a', 'b', 'd', 'e']);
    expect(() => store.checkTallies(BROKEN_KEPT + 1)).toThrow(RangeError);
    store.close();
  });

  it('counts the checks of runs stored before their tally was kept (migration 16), as it counts a new run', async () => {
    const { dir, old } = await oldStore(15);
    const insertRun = (id: string, outcome: string) =>
      old.prepare(`INSERT INTO runs (id, suite_id, suite_hash, controls_digest, task, agent_id, agent_json, replay, outcome, agent_sec, grade_sec,
        lines_added, lines_removed, points, max_points, runtime_json, started_at, finished_at) VALUES (?, 's', 'h', 'c', 't', 'a', '{}', 0, ?, 0, 0, 0, 0, 1, 1, '{}', '', '')`).run(id, outcome);
    insertRun('old', 'failed');
    insertRun('bare', 'failed');
    const check = old.prepare('INSERT INTO checks (run_id, ord, check_id, expected, status) VALUES (?, ?, ?, ?, ?)');
    for (let i = 0; i < BROKEN_KEPT + 5; i++) check.run('old', 1, `p${String(i).padStart(2, '0')}`, 'pass-to-pass', i % 2 ? 'fail' : 'missing');
    check.run('old', 2, 'g1', 'generated', 'pass');
    check.run('old', 2, 'g2', 'generated', 'error');
    check.run('old', 1, 'f', 'fail-to-pass', 'skip');
    old.close();
    const store = openStore(dir, { create: false });
    const tallies = store.checkTallies(BROKEN_KEPT);
    expect([...tallies.keys()]).toEqual(['old']);
    expect(tallies.get('old')).toEqual({
      failToPass: { passed: 0, total: 1, errored: 0 },
      passToPass: { passed: 0, total: BROKEN_KEPT + 5, errored: 13, broken: Array.from({ length: BROKEN_KEPT }, (_, i) => `p${String(i).padStart(2, '0')}`) },
      generated: { passed: 1, total: 2, errored: 1 },
    });
    store.close();
  });

  it('keeps one bake row per suite hash and folder, the latest first', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-store-'));
    const store = openStore(dir, { create: true });
    const bake = { suiteId: 's', suiteHash: 'h1', suiteDir: '/suites/a', controlsDigest: 'c' };
    store.saveBake(bake);
    store.saveBake({ ...bake, suiteHash: 'h2' });
    await new Promise((r) => setTimeout(r, 5));
    store.saveBake(bake);
    const bakes = store.bakes();
    expect(bakes.map((b) => b.suiteHash)).toEqual(['h1', 'h2']);
    expect(bakes[0]!.lastAt > bakes[0]!.firstAt).toBe(true);
    store.close();
  });

  it('stores each model request with its detail and cost basis, and reads requests stored before them (schema 4) as unknown', async () => {
    const { dir, old } = await oldStore(4);
    old.prepare(`INSERT INTO runs (id, suite_id, suite_hash, controls_digest, task, agent_id, agent_json, replay, outcome, agent_sec, grade_sec,
      lines_added, lines_removed, points, max_points, runtime_json, started_at, finished_at) VALUES ('old', 's', 'h', 'c', 't', 'a', '{}', 0, 'solved', 0, 0, 0, 0, 1, 1, '{}', '', '')`).run();
    old.prepare(`INSERT INTO sessions (run_id, ord, timed_out, duration_ms) VALUES ('old', 1, 0, 1)`).run();
    old.prepare(`INSERT INTO requests (run_id, ord, seq, started_at, path, latency_ms, cost_usd) VALUES ('old', 1, 1, '2026-01-01T00:00:00Z', '/v1/messages', 1, 0.5)`).run();
    old.close();
    const store = openStore(dir, { create: false });
    expect(store.sessions('old')[0]!.requests).toMatchObject([{ seq: 1, costUsd: 0.5, detail: null, costBasis: null }]);
    const request = {
      seq: 1, startedAt: '2026-12-01T10:00:00.000Z', format: 'anthropic-messages', path: '/v1/messages', model: 'm', status: 200,
      failure: 'truncated', detail: 'the anthropic-messages stream ended after 600 bytes without message_stop', latencyMs: 1, ttfbMs: 1,
      input: 10, cacheRead: 0, cacheWrite: 0, output: 2, reasoning: 0, costUsd: 0.25, costBasis: 'catalog anthropic/m: …',
    };
    const session = { order: 1, exitCode: 0, timedOut: false, durationMs: 1, tokensIn: 10, tokensOut: 2, costUsd: 0.25, error: null, requests: [request] };
    store.saveRun(run('new'), [session], [], store.artifactsTempDir('new'));
    expect(store.sessions('new')[0]!.requests).toEqual([{ ...request, quota: null, withheld: null, providerToolUse: null }]);
    const limited = {
      ...request, seq: 2, status: 429, failure: 'usage-limit', quota: { 'x-codex-primary-used-percent': '100' },
      withheld: [{ what: 'tool web_search (web search)', where: 'tools[9]', action: 'stripped' as const }], providerToolUse: ['output item web_search_call'],
    };
    store.saveRun(run('limited'), [{ ...session, requests: [limited] }], [], store.artifactsTempDir('limited'));
    expect(store.sessions('limited')[0]!.requests).toEqual([limited]);
    store.saveRun({ ...run('web'), webAttempts: 4 }, [session], [], store.artifactsTempDir('web'));
    expect(store.listRuns().map((r) => [r.id, r.webAttempts])).toEqual(expect.arrayContaining([['web', 4], ['old', null]]));
    store.close();
  });

  it('tells runs stored before checksums were recorded (schema 2) from runs without artifacts', async () => {
    const { dir, old } = await oldStore(2);
    old.prepare(`INSERT INTO runs VALUES ('old', 's', 'h', 'c', 't', 'gold', '{}', 0, NULL, NULL, 'solved', NULL, NULL, 0, 0,
      NULL, NULL, NULL, 0, 0, 1, 1, '{}', '', '', '[]')`).run();
    old.close();
    const store = openStore(dir, { create: false });
    expect(store.artifactDigests('old')).toBeNull();
    expect(store.artifactDigests('no-such-run')).toBeNull();
    store.close();
  });
});

/** A results folder with 300 stored runs (a database of many pages), closed; `intact` remembers it as its writer left it. */
async function folderWithRuns(intact?: ReturnType<typeof openProbeCache>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-check-store-'));
  const store = openStore(dir, { create: true, ...(intact ? { intact } : {}) });
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

  it('skips quick_check for a database as its writer closed it or as last found intact, and checks it again once it changed', async () => {
    const intact = openProbeCache(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-intact-')));
    const dir = await folderWithRuns(intact);
    const db = path.join(dir, 'bakeoff.db');
    // the writer's close remembered the file as it left it; the WAL was folded in and removed
    expect(knownIntact(db, intact).known).toBe(true);
    const reader = openStore(dir, { create: false, intact });
    expect(reader.listRuns()).toHaveLength(300);
    reader.close();
    expect(knownIntact(db, intact).known).toBe(true);
    // damage changes the file's stamps: the kept "intact" no longer applies, and quick_check refuses it
    overwrite(db, 3 * 4096, 4096);
    expect(knownIntact(db, intact).known).toBe(false);
    expect(refusal(() => openStore(dir, { create: false, intact }))).toContain(`${db}: the results database is damaged (SQLite: `);
    expect(knownIntact(db, intact).known).toBe(false);
  });

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
