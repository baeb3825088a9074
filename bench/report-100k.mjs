// Report generation time over 100,000 synthetic runs (target: under 3 s on this machine).
// Usage: npm run build && node bench/report-100k.mjs [runs]
import { summarize, renderTable, renderMarkdown, renderJson } from '../dist/report/index.js';

const N = Number(process.argv[2] ?? 100_000);
const AGENTS = 20;
const TASKS = 500;
const perCell = Math.max(1, Math.round(N / (AGENTS * TASKS)));
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const runs = [];
for (let a = 0; a < AGENTS; a++) {
  const agent = { id: `agent-${a}`, harness: 'claude-code', version: '2.1.0', model: `model-${a % 5}`, effort: 'high' };
  for (let t = 0; t < TASKS; t++) {
    for (let r = 0; r < perCell; r++) {
      const x = rand();
      const outcome = x < 0.02 ? { kind: 'void', reason: 'infra-error' } : x < 0.3 + a / 50 ? { kind: 'solved' } : { kind: 'failed', reason: 'tests-failed' };
      runs.push({
        id: `${a}-${t}-${r}`, suiteId: 'bench', suiteHash: 'h', controlsDigest: 'c', task: `task-${String(t).padStart(3, '0')}`,
        agent, replay: r, seed: null, level: null, outcome, agentSec: 30 + rand() * 300, gradeSec: 2, costUsd: rand() * 2,
        tokensIn: Math.round(rand() * 1e6), tokensOut: Math.round(rand() * 5e4), linesAdded: Math.round(rand() * 80),
        linesRemoved: Math.round(rand() * 20), points: 3, maxPoints: 4, orders: [{ order: 1, points: 3, maxPoints: 4 }],
        runtime: { sandbox: 'bwrap' }, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:05:00Z',
      });
    }
  }
}
const time = (label, fn) => { const t = performance.now(); const out = fn(); const ms = performance.now() - t; console.log(`${label.padEnd(26)} ${ms.toFixed(0).padStart(6)} ms`); return out; };
console.log(`report over ${runs.length.toLocaleString('en')} runs (${AGENTS} agents × ${TASKS} tasks × ${perCell} runs)`);
const t0 = performance.now();
const view = time('summarize', () => summarize(runs, { standardRunsPerTask: perCell, controls: { runsPerTask: perCell } }));
time('render table', () => renderTable(view));
time('render markdown', () => renderMarkdown(view));
const json = time('render json', () => renderJson(view, runs));
console.log(`${'total'.padEnd(26)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms (json ${(json.length / 1e6).toFixed(1)} MB)`);
