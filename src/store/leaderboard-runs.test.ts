import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { LeaderboardRun, RunRecord } from '../types.js';
import { LEADERBOARD_QUERY } from './leaderboard-runs.js';
import { openStore } from './open-store.js';

const agent = { id: 'claude-code:m@high', harness: 'claude-code', version: '2.1.0', model: 'm', effort: 'high' };
const base: RunRecord = {
  id: 'r', suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't1', agent, replay: 0, seed: 7, level: 2,
  outcome: { kind: 'solved' }, agentSec: 12.5, gradeSec: 3, costUsd: 0.25, tokensIn: 1000, tokensOut: 50, linesAdded: 4, linesRemoved: 1,
  plainLines: { added: 4, removed: 1 }, points: 2, maxPoints: 2, orders: [{ order: 1, points: 2, maxPoints: 2 }],
  runtime: { sandbox: 'bwrap', node: 'v20' }, usage: { inputTokens: 1000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 50, reasoningTokens: 0, requests: 1 },
  flags: [], effortCatalog: { source: 'table', digest: 'd'.repeat(64), requested: 'high', resolved: 'high' },
  steps: [], webAttempts: 0, startedAt: '2026-01-01T00:00:02Z', finishedAt: '2026-01-01T00:00:09Z',
};

/** The fields of a whole record a leaderboard reads. */
function leaderboardPart(run: RunRecord): LeaderboardRun {
  const { seed: _s, gradeSec: _g, plainLines: _p, usage: _u, steps: _t, finishedAt: _f, ...rest } = run;
  return rest;
}

describe('listLeaderboardRuns', () => {
  it("gives every run's leaderboard fields as listRuns gives them, in its order, read from an index alone", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-leaderboard-runs-'));
    const store = openStore(dir, { create: true });
    const runs: RunRecord[] = [
      base,
      // same start: ordered by id; a void with its detail, a built-in agent without meter or catalog
      { ...base, id: 'a', task: 't2', outcome: { kind: 'void', reason: 'upstream-error', detail: 'the API answered 503' }, costUsd: null, tokensIn: null, tokensOut: null, effortCatalog: null, webAttempts: null,
        agent: { id: 'noop', harness: 'builtin', version: null, model: null, effort: null }, usage: null },
      { ...base, id: 'f', replay: 1, startedAt: '2026-01-01T00:00:01Z', outcome: { kind: 'failed', reason: 'tests-failed', detail: '1 of 2 tests pass' }, points: 1,
        orders: [{ order: 1, points: 1, maxPoints: 1 }, { order: 2, points: 0, maxPoints: 1 }], flags: ['order 1: tokens disagree'], level: null, runtime: { sandbox: 'unsafe-no-sandbox' } },
    ];
    for (const run of runs) store.saveRun(run, [], [{ order: 1, id: 'x', expected: 'fail-to-pass', status: run.outcome.kind === 'solved' ? 'pass' : 'fail' }], store.artifactsTempDir(run.id));
    expect(store.listRuns().map((r) => r.id)).toEqual(['f', 'a', 'r']);
    expect(store.listLeaderboardRuns()).toEqual(store.listRuns().map(leaderboardPart));
    store.close();
    const db = new Database(path.join(dir, 'bakeoff.db'), { readonly: true });
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ');
    // a column read that the index lacks sends the read back to every run's row
    expect(plan(LEADERBOARD_QUERY)).toBe('SCAN runs USING COVERING INDEX runs_leaderboard');
    // the failure anatomy's tallies of failed runs (check-tallies.ts)
    expect(plan("SELECT id, tests_json FROM runs WHERE outcome = 'failed' AND tests_json IS NOT NULL")).toBe('SCAN runs USING COVERING INDEX runs_failed_tests');
    db.close();
  });
});
