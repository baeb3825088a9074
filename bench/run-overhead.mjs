// Harness overhead per run: a gold run of each starter task through `bakeoff run` (workspace,
// session, change capture, grading from a clean copy, store) against running that task's bare
// test command on a fresh ready copy (gold + hidden files in place, no reporter, no sandbox).
// Usage: npm run bench   (prints a table; medians over REPEATS)
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadSuite } from '../dist/suite/load-suite.js';
import { prepareRepo } from '../dist/sandbox/prepare-repo.js';
import { createProcessSandbox } from '../dist/sandbox/process-sandbox.js';
import { applyPatch } from '../dist/sandbox/git.js';
import { placeHiddenFiles } from '../dist/grade/grading-tree.js';
import { baseEnv } from '../dist/run/base-env.js';
import { median } from './median.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SUITE = path.join(ROOT, 'examples/starter');
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const cacheDir = process.env.BAKEOFF_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'bakeoff');

const suite = await loadSuite(SUITE);
const env = baseEnv();
const bare = new Map();
for (const task of suite.tasks) {
  const prepared = await prepareRepo({ taskId: task.id, taskHash: task.hash, repoDir: task.repoDir, setup: task.manifest.setup, cacheDir, sandbox: createProcessSandbox(), env, timeoutMs: 900_000 });
  if (!prepared.ok) throw new Error(`${task.id}: ${prepared.reason}`);
  // Each timing starts from a fresh ready copy (gold + hidden files in place, as grading has it),
  // so compiling the change (cargo) counts on both sides; making the copy is not timed.
  const times = [];
  for (let i = 0; i < REPEATS; i++) {
    const ws = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-'));
    cpSync(prepared.repo, ws, { recursive: true, verbatimSymlinks: true });
    for (const o of task.orders) await applyPatch(ws, readFileSync(o.goldPatchPath, 'utf8'));
    await placeHiddenFiles(ws, task.orders.map((o) => o.hiddenDir));
    const t = performance.now();
    spawnSync('sh', ['-c', task.manifest.test.command], { cwd: ws, env, stdio: 'ignore' });
    times.push((performance.now() - t) / 1000);
    rmSync(ws, { recursive: true, force: true });
  }
  bare.set(task.id, median(times));
}

const out = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-out-'));
const started = performance.now();
execFileSync('node', [path.join(ROOT, 'bin/bakeoff.js'), 'run', SUITE, '--agent', 'gold', '--runs', String(REPEATS), '--concurrency', '1', '--out', out, '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
const wall = (performance.now() - started) / 1000;
const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
const rows = db.prepare('SELECT task, agent_sec, grade_sec, started_at, finished_at FROM runs').all();
db.close();

console.log(`harness overhead per run, gold agent, starter suite (medians of ${REPEATS}; concurrency 1)`);
console.log('task                          bare test  harness run  grading   overhead  ratio run/bare');
const ratios = [];
for (const task of suite.tasks) {
  const mine = rows.filter((r) => r.task === task.id);
  const run = median(mine.map((r) => (Date.parse(r.finished_at) - Date.parse(r.started_at)) / 1000));
  const grade = median(mine.map((r) => r.grade_sec));
  const ratio = run / bare.get(task.id);
  ratios.push(ratio);
  console.log(`${task.id.padEnd(30)}${bare.get(task.id).toFixed(3).padStart(8)} s${run.toFixed(3).padStart(11)} s${grade.toFixed(3).padStart(8)} s${(run - bare.get(task.id)).toFixed(3).padStart(9)} s${ratio.toFixed(2).padStart(12)}×`);
}
console.log(`median ratio ${median(ratios).toFixed(2)}×; whole bake ${wall.toFixed(1)} s for ${rows.length} runs (${(wall / rows.length).toFixed(2)} s/run incl. CLI start and planning)`);
rmSync(out, { recursive: true, force: true });
