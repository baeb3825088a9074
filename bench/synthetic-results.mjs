// A results folder of N synthetic runs, written the way a bake leaves it (the store's own
// schema, made by openStore): runs with every JSON column a model agent's run has, one session
// per run, model requests, graded tests, artifact digests, controls and the bake row. Rows are
// inserted in one transaction (a bake writes one per run; the bench measures reading, not that).
// Usage (from another bench): `await syntheticResults(dir, { runs: 100_000 })`.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from '../dist/store/open-store.js';
import { TALLY_OF_RUN } from '../dist/store/check-tallies.js';

/**
 * Writes `runs` runs into a new results folder `dir`: `agents` agents × `tasks` tasks × the
 * replays that make up `runs`; model agents (every agent but the first two, which are gold and
 * noop) have metered usage, a catalog reference and `requestsPerRun` model requests; every run
 * has `checksPerRun` graded tests. Deterministic (a fixed seed).
 */
export function syntheticResults(dir, { runs: N = 100_000, agents: AGENTS = 20, tasks: TASKS = 500, requestsPerRun = 4, checksPerRun = 10 } = {}) {
  mkdirSync(dir, { recursive: true });
  openStore(dir, { create: true }).close();
  const db = new Database(path.join(dir, 'bakeoff.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const replays = Math.max(1, Math.round(N / (AGENTS * TASKS)));
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const controls = { runsPerTask: replays, replayRule: null, voidLimit: null };
  db.prepare('INSERT INTO controls (digest, json) VALUES (?, ?)').run('c'.repeat(64), JSON.stringify(controls));
  const taskIds = Array.from({ length: TASKS }, (_, t) => `task-${String(t).padStart(4, '0')}`);
  db.prepare('INSERT INTO bakes (suite_hash, suite_dir, suite_id, controls_digest, first_at, last_at, tasks_json) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run('h'.repeat(64), '/suites/bench', 'bench', 'c'.repeat(64), '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', JSON.stringify(taskIds));
  const runtime = JSON.stringify({ bakeoff: '0.1.0', node: 'v20.20.2', python: 'Python 3.11.7', cargo: 'cargo 1.95.0', bwrap: 'bubblewrap 0.8.0', quickjs: 'quickjs-emscripten 0.32.0', platform: 'linux-x64', sandbox: 'bwrap', workspace: 'overlay' });
  const insertRun = db.prepare(`INSERT INTO runs (id, suite_id, suite_hash, controls_digest, task, agent_id, agent_json, replay, seed, level, outcome, reason, detail,
    agent_sec, grade_sec, cost_usd, tokens_in, tokens_out, lines_added, lines_removed, points, max_points, runtime_json, started_at, finished_at,
    orders_json, artifacts_recorded, usage_json, flags_json, effort_catalog_json) VALUES (?, 'bench', ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`);
  const insertSession = db.prepare('INSERT INTO sessions (run_id, ord, exit_code, timed_out, duration_ms, tokens_in, tokens_out, cost_usd, error, usage_json, harness_json) VALUES (?, 1, 0, 0, ?, ?, ?, ?, NULL, ?, ?)');
  const insertRequest = db.prepare(`INSERT INTO requests (run_id, ord, seq, started_at, format, path, model, status, failure, latency_ms, ttfb_ms, input, cache_read, cache_write, output, reasoning, cost_usd, detail, cost_basis, quota_json)
    VALUES (?, 1, ?, ?, 'anthropic', '/v1/messages', ?, 200, NULL, ?, ?, ?, ?, 0, ?, 0, ?, NULL, 'list price', NULL)`);
  const insertCheck = db.prepare("INSERT INTO checks (run_id, ord, check_id, expected, status) VALUES (?, 1, ?, ?, ?)");
  const insertArtifact = db.prepare('INSERT INTO artifacts (run_id, path, sha256, bytes) VALUES (?, ?, ?, ?)');
  const base = Date.parse('2026-01-01T00:00:00Z');
  let n = 0;
  db.transaction(() => {
    for (let r = 0; r < replays; r++) {
      for (let t = 0; t < TASKS; t++) {
        for (let a = 0; a < AGENTS; a++) {
          const model = a >= 2;
          const agent = model
            ? { id: `claude-code:model-${a}@high`, harness: 'claude-code', version: '2.1.332', model: `model-${a}`, effort: 'high' }
            : { id: a === 0 ? 'gold' : 'noop', harness: 'builtin', version: null, model: null, effort: null };
          const x = rand();
          const outcome = a === 0 ? 'solved' : a === 1 ? 'failed' : x < 0.02 ? 'void' : x < 0.3 + a / 50 ? 'solved' : 'failed';
          const reason = outcome === 'void' ? 'upstream-error' : outcome === 'failed' ? 'tests-failed' : null;
          const id = `r${String(n).padStart(7, '0')}`;
          const started = new Date(base + n * 7000).toISOString();
          const tokensIn = model ? Math.round(rand() * 1e6) : null;
          const tokensOut = model ? Math.round(rand() * 5e4) : null;
          const cost = model ? rand() * 2 : null;
          const usage = model ? JSON.stringify({ inputTokens: tokensIn, cacheReadTokens: Math.round(tokensIn * 0.8), cacheWriteTokens: 0, outputTokens: tokensOut, reasoningTokens: 0, requests: requestsPerRun }) : null;
          const catalog = model ? JSON.stringify({ source: "bakeoff's table for the pinned CLI", digest: 'd'.repeat(64), requested: 'high', resolved: 'high' }) : null;
          insertRun.run(id, 'h'.repeat(64), 'c'.repeat(64), taskIds[t], agent.id, JSON.stringify(agent), r, outcome, reason, reason ? `${reason}: 3 of 4 tests passed` : null,
            30 + rand() * 300, 2 + rand() * 5, cost, tokensIn, tokensOut, Math.round(rand() * 80), Math.round(rand() * 20), outcome === 'solved' ? 4 : 3, 4, runtime,
            started, new Date(base + n * 7000 + 300_000).toISOString(), JSON.stringify([{ order: 1, points: outcome === 'solved' ? 4 : 3, maxPoints: 4 }]), usage, '[]', catalog);
          insertSession.run(id, 60_000, tokensIn, tokensOut, cost, usage, model ? JSON.stringify({ tokensIn, tokensOut, costUsd: cost, turns: 7 }) : null);
          if (model) for (let q = 0; q < requestsPerRun; q++) insertRequest.run(id, q, started, agent.model, 800 + rand() * 4000, 300, Math.round(tokensIn / requestsPerRun), 1000, Math.round(tokensOut / requestsPerRun), cost / requestsPerRun);
          for (let c = 0; c < checksPerRun; c++) insertCheck.run(id, `tests/test_${c}.py::test_case_${c}`, c < 3 ? 'fail-to-pass' : 'pass-to-pass', outcome === 'solved' || c > 0 ? 'pass' : 'fail');
          for (const file of ['order-1/change.patch', 'order-1/agent.log', 'order-1/grade-1.log']) insertArtifact.run(id, file, 'a'.repeat(64), 1000);
          n++;
        }
      }
    }
  })();
  // each run's checks counted, as a bake's saveRun counts them when it stores the run
  db.exec(`UPDATE runs SET tests_json = ${TALLY_OF_RUN}`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { runs: n, agents: AGENTS, tasks: TASKS, replays };
}
