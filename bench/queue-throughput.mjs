// Fleet throughput when the work is waiting on the agent: the same bake (the tiny suite, an
// agent that sleeps SLEEP seconds per session, RUNS runs per task) through `bakeoff run --queue`
// with 1, 2 and 4 `bakeoff worker`s (one run at a time each) on one Redis, all on this machine.
// Prints runs per minute as a ratio to 1 worker (over the coordinator's whole command, and over
// the span from the first run's start to the last run's end), and the coordinator's own time per run:
// enqueueing it, and from a worker's completion to the run stored in SQLite (median).
// The agent sleeps in a `command:` agent rather than in the scripted model: the scripted model
// server has no answer delay; a sleeping command holds a worker the same way a slow model does.
// Usage: npm run build && node bench/queue-throughput.mjs   (BENCH_RUNS, BENCH_SLEEP to change)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 6);
const SLEEP = Number(process.env.BENCH_SLEEP ?? 5);
const FLEETS = [1, 2, 4];

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-queue-'));
const suite = path.join(tmp, 'tiny');
cpSync(path.join(ROOT, 'test/fixtures/suites/tiny'), suite, { recursive: true });
execFileSync('node', [BIN, 'validate', suite], { stdio: ['ignore', 'ignore', 'inherit'] });

const port = await freePort();
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', tmp, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
await sleep(500);

const rows = [];
for (const n of FLEETS) {
  const db = n; // one Redis database per fleet size: nothing of one bake is seen by the next
  const url = `redis://127.0.0.1:${port}/${db}`;
  const workers = Array.from({ length: n }, (_, i) => spawn('node', [BIN, 'worker', '--queue', url, '--name', `b${n}-${i}`, '--concurrency', '1'], { stdio: ['ignore', 'ignore', 'pipe'] }));
  await Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve, reject) => {
          let err = '';
          w.stderr.on('data', (c) => {
            err += c;
            if (err.includes('ready')) resolve();
          });
          w.on('exit', (code) => reject(new Error(`worker exited ${code}: ${err}`)));
        }),
    ),
  );
  const out = path.join(tmp, `results-${n}`);
  const t0 = performance.now();
  const stdout = execFileSync('node', [BIN, 'run', suite, '--agent', `command:sleep ${SLEEP}`, '--runs', String(RUNS), '--queue', url, '--out', out, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const minutes = (performance.now() - t0) / 60_000;
  const json = JSON.parse(stdout.toString());
  // the span the runs took, first start to last finish: the coordinator's own start (suite, sandbox check) left out
  const store = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  const { first, last } = store.prepare('SELECT min(started_at) AS first, max(finished_at) AS last FROM runs').get();
  store.close();
  const spanMin = (Date.parse(last) - Date.parse(first)) / 60_000;
  rows.push({ workers: n, runs: json.ran, minutes, perMin: json.ran / minutes, spanPerMin: json.ran / spanMin, enqueue: json.fleet.enqueueMsPerRun, ingest: json.fleet.medianIngestMs });
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r() : w.on('exit', r)))));
}
redis.kill('SIGTERM');
rmSync(tmp, { recursive: true, force: true });

const base = rows[0].perMin;
const spanBase = rows[0].spanPerMin;
console.log(`queue throughput: tiny suite, command:sleep ${SLEEP}, ${RUNS} runs per task; ${os.cpus().length} cores`);
console.log('workers  runs  wall (s)  runs/min  × 1 worker  runs/min (span)  × 1 worker  enqueue ms/run  ingest ms (median)');
for (const r of rows) {
  console.log(
    `${String(r.workers).padStart(7)}  ${String(r.runs).padStart(4)}  ${(r.minutes * 60).toFixed(1).padStart(8)}  ${r.perMin.toFixed(1).padStart(8)}  ${(r.perMin / base).toFixed(2).padStart(10)}  ${r.spanPerMin.toFixed(1).padStart(15)}  ${(r.spanPerMin / spanBase).toFixed(2).padStart(10)}  ${r.enqueue.toFixed(2).padStart(14)}  ${String(r.ingest).padStart(18)}`,
  );
}
