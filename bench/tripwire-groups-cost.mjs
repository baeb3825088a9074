// What grading trust costs per graded order (the grading tree, tripwires, read-only binds of the
// graded files, the report tmpfs, pytest's copied config), on each task of a validated suite
// (the starter suite by default) with the gold change, in the real sandbox: four timings per
// repeat, interleaved so that machine noise hits all alike, each from a fresh overlay workspace
// with the gold change applied:
//   bare     the task's bare test command in the sandbox (no reporter)
//   before   the command with bakeoff's reporter, hidden files copied in (grading as it was)
//   wires    runGradedTests with the lock's expected tests but no tripwire groups (wires only)
//   now      runGradedTests as grading runs it: tripwire groups of the lock's fail-to-pass tests
// Prints medians, the added time now − before as a share of the bare command, and what the
// tripwire groups add (now − wires) as a share of it.
// Usage: npm run build && node bench/tripwire-groups-cost.mjs [suite]   (BENCH_REPEATS, default 5)
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
import { readLock } from '../dist/suite/lock.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const SUITE = path.resolve(process.argv[2] ?? path.join(ROOT, 'examples/starter'));
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const MB = 1024 * 1024;
const cacheDir = process.env.BAKEOFF_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'bakeoff');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const suite = await loadSuite(SUITE);
const lock = await readLock(suite);
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

async function timeNow(task, prepared, i, groups) {
  const dir = path.join(scratch, `${task.id}-${groups ? 'now' : 'wires'}-${i}`);
  const orders = lock.tasks[task.id].orders;
  const failToPass = orders.flatMap((o) => o.failToPass);
  const { ws, changed } = await goldWorkspace(task, prepared, path.join(dir, 'w'));
  try {
    const t = performance.now();
    const graded = await runGradedTests({
      sandbox: isolation.sandbox,
      repoDir: ws.dir,
      preparedRepo: prepared,
      test: task.manifest.test,
      hiddenDirs: task.orders.map((o) => o.hiddenDir),
      expectedIds: [...failToPass, ...orders.flatMap((o) => o.passToPass)],
      templateIds: groups ? failToPass : [],
      changedPaths: changed,
      outDir: path.join(dir, 'out'),
      scratchDir: dir,
      env,
      timeoutMs: 300_000,
      outputBytes: suite.controls.outputMb * MB,
    });
    const seconds = (performance.now() - t) / 1000;
    if (graded.tripwires.flipped.length + graded.tripwires.wrong.length > 0) throw new Error(`${task.id}: tripwires ${JSON.stringify(graded.tripwires)}`);
    if (groups && graded.tree.groups.length === 0) throw new Error(`${task.id}: no tripwire group was placed`);
    return seconds;
  } finally {
    await ws.dispose();
  }
}

console.log(`grading trust per graded order, gold change, ${suite.id} suite, sandboxed (medians of ${REPEATS}, interleaved)`);
console.log('task                          runner     bare cmd    before     wires       now   added   added/bare   groups   groups/bare');
const shares = [];
const groupShares = [];
try {
  for (const task of suite.tasks) {
    if (!lock.tasks[task.id]?.admitted) continue;
    const prepared = await prepareTask({ task, controls: suite.controls, isolation, env, cacheDir });
    if (!prepared.ok) throw new Error(`${task.id}: ${prepared.reason}`);
    const bare = [];
    const before = [];
    const wires = [];
    const now = [];
    for (let i = 0; i < REPEATS; i++) {
      bare.push(await timeBare(task, prepared.repo, i, false));
      before.push(await timeBare(task, prepared.repo, i, true));
      wires.push(await timeNow(task, prepared.repo, i, false));
      now.push(await timeNow(task, prepared.repo, i, true));
    }
    const [b, o, w, n] = [median(bare), median(before), median(wires), median(now)];
    shares.push((n - o) / b);
    groupShares.push((n - w) / b);
    const s = (x) => `${x.toFixed(3).padStart(7)} s`;
    const pct = (x) => `${(x * 100).toFixed(1).padStart(9)} %`;
    console.log(`${task.id.padEnd(30)}${task.manifest.test.format.padEnd(9)}${s(b)} ${s(o)} ${s(w)} ${s(n)} ${s(n - o)}  ${pct((n - o) / b)} ${s(n - w)}  ${pct((n - w) / b)}`);
  }
  console.log(`median added time: ${(median(shares) * 100).toFixed(1)} % of the bare test command (target < 5 %)`);
  console.log(`median added by the tripwire groups: ${(median(groupShares) * 100).toFixed(1)} % of the bare test command (target < 5 %)`);
} finally {
  await disposeScratch(scratch);
}
