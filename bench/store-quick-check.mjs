// What the results folder's self-check (PRAGMA quick_check on every open) costs, as a ratio to
// opening the database bare and as a share of reading every run (what report does).
// Usage: npm run build && node bench/store-quick-check.mjs [runs]
import { openStore } from '../dist/store/index.js';
import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const dir = mkdtempSync('/tmp/qc-');
const s = openStore(dir, { create: true });
const run = (id) => ({ id, suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't', agent: { id: 'gold', harness: 'builtin', version: null, model: null, effort: null }, replay: 0, seed: null, level: null, outcome: { kind: 'solved' }, agentSec: 0, gradeSec: 0, costUsd: null, tokensIn: null, tokensOut: null, linesAdded: 1, linesRemoved: 0, points: 1, maxPoints: 1, orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: {}, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z', detail: 'x'.repeat(500) });
const N = Number(process.argv[2] ?? 5000);
for (let i = 0; i < N; i++) { const t = s.artifactsTempDir('r' + i); writeFileSync(path.join(t, 'a.log'), 'x'); s.saveRun(run('r' + i), [], [], t); }
s.close();
const times = (f) => { const xs = []; for (let k = 0; k < 9; k++) { const t = performance.now(); f(); xs.push(performance.now() - t); } return xs.sort((a, b) => a - b)[4]; };
const plain = times(() => { const d = new Database(path.join(dir, 'bakeoff.db')); d.pragma('user_version'); d.close(); });
const checked = times(() => { const d = new Database(path.join(dir, 'bakeoff.db')); d.pragma('quick_check'); d.close(); });
const full = times(() => { const s2 = openStore(dir, { create: false }); s2.listRuns(); s2.close(); });
console.log(`${N} runs: open ${plain.toFixed(2)} ms, open+quick_check ${checked.toFixed(2)} ms (${(checked/plain).toFixed(1)}x), openStore+listRuns ${full.toFixed(1)} ms; quick_check share of a report's read ${((checked-plain)/full*100).toFixed(0)}%`);
