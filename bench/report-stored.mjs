// `bakeoff report` of a results folder of 100,000 stored runs (table and JSON), whole process,
// each as seconds and as a multiple of `node -e 0` measured in the same interleaved rounds; and
// the static site of a 10,000-run bake rendered from its store (read, leaderboard, paired
// comparison, every page; publish's re-grading is not included: bench/run-overhead.mjs).
// Goals (issue 36): report of 100k runs < 1 s for the table and the JSON; the site of 10k < 10 s.
// Usage: npm run build && node bench/report-stored.mjs [runs=100000] [rounds=5]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { syntheticResults } from './synthetic-results.mjs';
import { leaderboard } from '../dist/api/report.js';
import { comparePaired, renderSite } from '../dist/report/index.js';
import { openStore } from '../dist/store/open-store.js';
import { median } from './median.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const N = Number(process.argv[2] ?? 100_000);
const ROUNDS = Number(process.argv[3] ?? 5);
const SITE_RUNS = 10_000;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-report-stored-'));
const env = { ...process.env, BAKEOFF_CACHE_DIR: path.join(scratch, 'cache') };

let t = performance.now();
const big = path.join(scratch, 'big');
const made = syntheticResults(big, { runs: N });
console.log(`wrote ${made.runs.toLocaleString('en')} runs (${made.agents} agents × ${made.tasks} tasks × ${made.replays}) in ${((performance.now() - t) / 1000).toFixed(1)} s`);

const cases = [
  ['node -e 0', ['-e', '0']],
  [`report (${N} runs, table)`, [BIN, 'report', big]],
  [`report (${N} runs, json)`, [BIN, 'report', big, '--format', 'json']],
];
// once, unmeasured: the page cache, and the store's intact-stamp (the first open runs quick_check)
for (const [, args] of cases) spawnSync(process.execPath, args, { env, stdio: 'ignore' });
const wall = new Map(cases.map(([label]) => [label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, args] of cases) {
    const started = performance.now();
    const child = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
    wall.get(label).push(performance.now() - started);
    if (child.status !== 0) throw new Error(`${label}: exit ${child.status}: ${child.stderr}`);
  }
}
const base = median(wall.get('node -e 0'));
console.log(`\nreport from the store, medians of ${ROUNDS} interleaved rounds; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
for (const [label] of cases) {
  const w = median(wall.get(label));
  console.log(`${label.padEnd(32)}${(w / 1000).toFixed(2).padStart(8)} s${(w / base).toFixed(1).padStart(8)}× node -e 0${label === 'node -e 0' ? '' : w < 1000 ? '   (goal < 1 s: met)' : '   (goal < 1 s: not met)'}`);
}

const small = path.join(scratch, 'small');
syntheticResults(small, { runs: SITE_RUNS, agents: 10, tasks: 100 });
const site = [];
for (let round = 0; round < Math.max(1, Math.ceil(ROUNDS / 2)); round++) {
  t = performance.now();
  const store = openStore(small, { create: false });
  const runs = store.listRuns();
  const view = await leaderboard(store, runs);
  const [first, second] = view.agents;
  const controls = [...store.controls().values()][0];
  const comparison = first && second ? comparePaired(runs, { a: first.agent.id, b: second.agent.id, controls }) : null;
  const taskIds = [...new Set(runs.map((r) => r.task))];
  const tasks = taskIds.map((id) => ({ id, kind: 'feature', language: 'python', grading: 'tests', orders: 1, knownFailures: 0, failToPass: 3, passToPass: 7, origin: null, public: null }));
  const suite = { id: 'bench', hash: 'h'.repeat(64), controls, tasks, methodology: null };
  const files = renderSite({ suite, view, runs, comparison, workers: new Map(), costByClass: new Map(), generatedAt: new Date().toISOString() });
  store.close();
  site.push(performance.now() - t);
  if (round === 0) console.log(`\nsite of ${runs.length.toLocaleString('en')} runs: ${files.size} pages, ${([...files.values()].reduce((n, h) => n + h.length, 0) / 1e6).toFixed(1)} MB`);
}
const s = median(site);
console.log(`site render (store → pages)      ${(s / 1000).toFixed(2).padStart(8)} s   (goal < 10 s: ${s < 10_000 ? 'met' : 'not met'})`);
rmSync(scratch, { recursive: true, force: true });
