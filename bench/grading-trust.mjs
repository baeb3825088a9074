// What grading trust costs per graded order (the grading tree, tripwires, read-only binds of the
// graded files, the report tmpfs, pytest's copied config), on each starter task with the gold
// change, in the real sandbox: three timings per repeat, interleaved so that machine noise hits
// all alike, each from a fresh overlay workspace with the gold change applied:
//   bare     the task's bare test command in the sandbox (no reporter)
//   before   the command with bakeoff's reporter, hidden files copied in (grading as it was)
//   now      runGradedTests: the whole of today's grading of the tests
// Prints medians and the added time now − before as a share of the bare command.
// Usage: npm run build && node bench/grading-trust.mjs   (BENCH_REPEATS, default 5)
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSuite } from '../dist/suite/load-suite.js';
import { prepareTask } from '../dist/run/prepare-task.js';
import { createIsolation } from '../dist/sandbox/isolation.js';
import { applyPatch } from '../dist/sandbox/git.js';
import { createWorkspace, disposeScratch, scratchRoot } from '../dist/sandbox/workspace.js';
import { placeHiddenFiles } from '../dist/grade/grading-tree.js';
import { runGradedTests } from '../dist/grade/run-graded-tests.js';
import { getTestRunner } from '../dist/runners/registry.js';
import { patchPaths } from '../dist/sandbox/patch-paths.js';
import { baseEnv } from '../dist/run/base-env.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SUITE = path.join(ROOT, 'examples/starter');
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const MB = 1024 * 1024;
const cacheDir = process.env.BAKEOFF_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'bakeoff');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const suite = await loadSuite(SUITE);
const isolation = await createIsolation({ controls: suite.controls, unsafe: false });
const env = baseEnv();
const scratch = await scratchRoot(`bench grading-trust ${process.pid}`);

/** A fresh workspace with the gold change of every order; returns it and the gold's paths. */
async function goldWorkspace(task, prepared, dir) {
  const ws = await createWorkspace(prepared, dir, isolation.workspace);
  const changed = [];
  for (const o of task.orders) {
    const patch = readFileSync(o.goldPatchPath, 'utf8');
    await applyPatch(ws.dir, patch);
    changed.push(...(await patchPaths(prepared, patch)).paths);
  }
  return { ws, changed };
}

async function timeBare(task, prepared, i, instrumented) {
  const dir = path.join(scratch, `${task.id}-${instrumented ? 'before' : 'bare'}-${i}`);
  const { ws } = await goldWorkspace(task, prepared, path.join(dir, 'w'));
  try {
    await placeHiddenFiles(ws.dir, task.orders.map((o) => o.hiddenDir));
    const reportDir = path.join(dir, 'report');
    mkdirSync(reportDir, { recursive: true });
    chmodSync(reportDir, 0o777); // as grading was: a report folder the sandbox uid may write
    const runner = getTestRunner(task.manifest.test.format);
    const command = instrumented ? runner.instrument(task.manifest.test.command, { reportDir }) : { command: task.manifest.test.command, env: {} };
    const t = performance.now();
    await isolation.sandbox.exec({
      command: command.command,
      cwd: ws.dir,
      env: { ...env, ...command.env },
      timeoutMs: 300_000,
      network: 'none',
      outputPath: path.join(dir, 'out.log'),
      binds: [{ path: ws.dir, writable: true }, { path: reportDir, writable: true }],
    });
    return (performance.now() - t) / 1000;
  } finally {
    await ws.dispose();
  }
}

async function timeNow(task, prepared, i) {
  const dir = path.join(scratch, `${task.id}-now-${i}`);
  const { ws, changed } = await goldWorkspace(task, prepared, path.join(dir, 'w'));
  try {
    const t = performance.now();
    const graded = await runGradedTests({
      sandbox: isolation.sandbox,
      repoDir: ws.dir,
      preparedRepo: prepared,
      test: task.manifest.test,
      hiddenDirs: task.orders.map((o) => o.hiddenDir),
      expectedIds: [],
      changedPaths: changed,
      outDir: path.join(dir, 'out'),
      scratchDir: dir,
      env,
      timeoutMs: 300_000,
      outputBytes: suite.controls.outputMb * MB,
    });
    const seconds = (performance.now() - t) / 1000;
    if (graded.tripwires.flipped.length + graded.tripwires.wrong.length > 0) throw new Error(`${task.id}: tripwires ${JSON.stringify(graded.tripwires)}`);
    return seconds;
  } finally {
    await ws.dispose();
  }
}

console.log(`grading trust per graded order, gold change, starter suite, sandboxed (medians of ${REPEATS}, interleaved)`);
console.log('task                          bare cmd    before       now   added   added/bare');
const shares = [];
try {
  for (const task of suite.tasks) {
    const prepared = await prepareTask({ task, controls: suite.controls, isolation, env, cacheDir });
    if (!prepared.ok) throw new Error(`${task.id}: ${prepared.reason}`);
    const bare = [];
    const before = [];
    const now = [];
    for (let i = 0; i < REPEATS; i++) {
      bare.push(await timeBare(task, prepared.repo, i, false));
      before.push(await timeBare(task, prepared.repo, i, true));
      now.push(await timeNow(task, prepared.repo, i));
    }
    const [b, o, n] = [median(bare), median(before), median(now)];
    shares.push((n - o) / b);
    console.log(`${task.id.padEnd(30)}${b.toFixed(3).padStart(7)} s${o.toFixed(3).padStart(8)} s${n.toFixed(3).padStart(8)} s${(n - o).toFixed(3).padStart(7)} s${(((n - o) / b) * 100).toFixed(1).padStart(10)} %`);
  }
  console.log(`median added time: ${(median(shares) * 100).toFixed(1)} % of the bare test command (target < 5 %)`);
} finally {
  await disposeScratch(scratch);
}
