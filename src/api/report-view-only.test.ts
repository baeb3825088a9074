import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { renderJson, renderTable } from '../report/index.js';
import { openStore } from '../store/index.js';
import type { RunRecord } from '../types.js';
import { report } from './report.js';

/** Runs of two agents on three tasks: solved, failed with checks (regressions and partly passing), void, an empty change. */
function runsOf(): RunRecord[] {
  const runs: RunRecord[] = [];
  let n = 0;
  for (const agent of ['claude-code:a@high', 'claude-code:b@low']) {
    for (const task of ['t1', 't2', 't3']) {
      for (let replay = 0; replay < 2; replay++) {
        const k = n++;
        const outcome: RunRecord['outcome'] = k % 5 === 0 ? { kind: 'void', reason: 'upstream-error' } : k % 3 === 0 ? { kind: 'failed', reason: 'tests-failed', detail: 'order 1: 1 of 2 tests pass' } : { kind: 'solved' };
        runs.push({
          id: `r${k}`, suiteId: 's', suiteHash: 'h'.repeat(64), controlsDigest: 'c'.repeat(64), task,
          agent: { id: agent, harness: 'claude-code', version: '2.1.0', model: agent.slice(12, 13), effort: agent.split('@')[1]! },
          replay, seed: null, level: null, outcome, agentSec: 10 + k * 1.7, gradeSec: 1, costUsd: 0.1 * k, tokensIn: 100 * k, tokensOut: 3 * k,
          linesAdded: k % 4, linesRemoved: 1, points: outcome.kind === 'solved' ? 2 : 1, maxPoints: 2, orders: [{ order: 1, points: outcome.kind === 'solved' ? 2 : 1, maxPoints: 2 }],
          runtime: { sandbox: 'bwrap' }, usage: null, flags: k === 4 ? ['order 1: tokens disagree'] : [], steps: [], webAttempts: 0,
          startedAt: `2026-01-01T00:00:${String(k).padStart(2, '0')}Z`, finishedAt: '2026-01-01T00:01:00Z',
        });
      }
    }
  }
  return runs;
}

/** A results folder with `runsOf()`, its database taken back to schema 16 (before migration 17's indexes). */
async function folderOfSchema16(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-report-view-only-'));
  const store = openStore(dir, { create: true });
  store.saveControls('c'.repeat(64), { runsPerTask: 2 });
  for (const run of runsOf()) {
    const checks = run.outcome.kind === 'failed'
      ? [{ order: 1, id: 'f1', expected: 'fail-to-pass' as const, status: 'fail' as const }, { order: 1, id: 'p1', expected: 'pass-to-pass' as const, status: (run.replay ? 'fail' : 'pass') as 'fail' | 'pass' }]
      : [];
    store.saveRun(run, [], checks, store.artifactsTempDir(run.id));
  }
  store.close();
  const db = new Database(path.join(dir, 'bakeoff.db'));
  db.exec('DROP INDEX runs_leaderboard; DROP INDEX runs_failed_tests');
  db.pragma('user_version = 16');
  db.close();
  return dir;
}

const schemaOf = (dir: string) => {
  const db = new Database(path.join(dir, 'bakeoff.db'), { readonly: true });
  const version = db.pragma('user_version', { simple: true });
  const indexes = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name IN ('runs_leaderboard', 'runs_failed_tests') ORDER BY name").pluck().all();
  const runs = db.prepare('SELECT count(*) FROM runs').pluck().get();
  db.close();
  return { version, indexes, runs };
};

describe('report of the view only (table, markdown)', () => {
  it('upgrades a folder of schema 16 and gives the leaderboard the whole runs give', async () => {
    const dir = await folderOfSchema16();
    const viewOnly = await report({ results: dir, viewOnly: true });
    expect(schemaOf(dir)).toEqual({ version: 17, indexes: ['runs_failed_tests', 'runs_leaderboard'], runs: 12 });
    const whole = await report({ results: dir });
    expect(viewOnly.runs).toEqual([]);
    expect(whole.runs).toHaveLength(12);
    expect(viewOnly.view).toEqual(whole.view);
    // the failure anatomy read the stored tallies: regressions and partly passing both occur
    expect(Object.values(whole.view.failureAnatomy.runs).map((f) => f.class).sort()).toEqual(expect.arrayContaining(['partly-passing', 'regressions']));
    expect(renderTable(viewOnly.view)).toBe(renderTable(whole.view));
    expect(renderJson(viewOnly.view, whole.runs)).toBe(renderJson(whole.view, whole.runs));
  });

  it('loses nothing when migration 17 breaks off half-way: the folder stays at schema 16 and upgrades on the next open', async () => {
    const dir = await folderOfSchema16();
    // the second index of the migration cannot be made: the first one, made already, must go with it
    const db = new Database(path.join(dir, 'bakeoff.db'));
    db.exec('CREATE TABLE runs_failed_tests (x)');
    db.close();
    await expect(report({ results: dir, viewOnly: true })).rejects.toThrow(/already a table named runs_failed_tests/);
    expect(schemaOf(dir)).toEqual({ version: 16, indexes: [], runs: 12 });
    const fix = new Database(path.join(dir, 'bakeoff.db'));
    fix.exec('DROP TABLE runs_failed_tests');
    fix.close();
    const upgraded = await report({ results: dir, viewOnly: true });
    expect(schemaOf(dir)).toEqual({ version: 17, indexes: ['runs_failed_tests', 'runs_leaderboard'], runs: 12 });
    expect(upgraded.view).toEqual((await report({ results: dir })).view);
  });
});
