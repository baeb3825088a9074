// What grading trust costs per graded order, per runner, with the gold change, in the real
// sandbox. Tasks: the starter suite (node:test, vitest, pytest, cargo), the jest task of
// test/fixtures/tasks and the runners fixture suite (mocha, TAP from tape, JUnit from pytest).
// Three timings per repeat, interleaved so that machine noise hits all alike, each from a fresh
// overlay workspace with the gold change applied:
//   bare     the task's bare test command in the sandbox (no reporter), hidden files in place
//   round 2  the grading tree (tripwires, graded files read-only) and the instrumented command
//            as grading ran it before round 3 (the command as written, runner code writable,
//            no build first)
//   wires    runGradedTests: round 2 plus round 3 — `npx <name>` resolved from the prepared
//            repo, node_modules and virtualenvs read-only, cargo's test binaries built first
//            and shown read-only, and checked after the run — with tripwire files but no
//            tripwire groups
//   now      runGradedTests as grading runs it: the lock's expected tests, and tripwire groups
//            made of its fail-to-pass tests (tasks the starter suite's lock admits; the others
//            have no lock here, and show wires only)
// Prints medians, the added time now − round 2 as a share of the bare command per runner
// (round 3's target: under 5 %; also as the median of that share within each interleaved repeat),
// and what the tripwire groups add (now − wires) as a share of it — in wall seconds and in CPU
// seconds (this process's and its host-side children's, in a cpuacct group of their own, plus
// each sandboxed command's own; on a shared machine wall time mostly measures the neighbours). Flags that cost nothing to pass (jest --no-cache, vitest's module cache off, pytest's
// bytecode prefix read-only) are in every column.
// Usage: npm run build && node bench/grading-trust.mjs   (BENCH_REPEATS, default 5; BENCH_ONLY=<task,…>)
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSuite } from '../dist/suite/load-suite.js';
import { prepareTask } from '../dist/run/prepare-task.js';
import { createIsolation } from '../dist/sandbox/isolation.js';
import { applyPatch } from '../dist/sandbox/git.js';
import { createWorkspace, disposeScratch, scratchRoot } from '../dist/sandbox/workspace.js';
import { buildGradingTree, placeHiddenFiles } from '../dist/grade/grading-tree.js';
import { readLockFile } from '../dist/suite/lock.js';
import { runGradedTests } from '../dist/grade/run-graded-tests.js';
import { runTests } from '../dist/grade/run-tests.js';
import { getTestRunner } from '../dist/runners/registry.js';
import { patchPaths } from '../dist/sandbox/patch-paths.js';
import { baseEnv } from '../dist/run/base-env.js';
import { median } from './median.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const MB = 1024 * 1024;
const cacheDir = process.env.BAKEOFF_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'bakeoff');

// the starter suite with the jest task beside it (as the hostile battery bakes them), and the runners suite
const starter = path.join(mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-trust-')), 'starter');
cpSync(path.join(ROOT, 'examples/starter'), starter, { recursive: true });
cpSync(path.join(ROOT, 'test/fixtures/tasks/bytes-rollover'), path.join(starter, 'tasks/bytes-rollover'), { recursive: true });
const suites = [await loadSuite(starter), await loadSuite(path.join(ROOT, 'test/fixtures/suites/runners'))];
// the starter suite's own lock: its tasks' expected and fail-to-pass tests (the copy's hash differs, so read the file)
const starterLock = await readLockFile(path.join(ROOT, 'examples/starter'));
if (starterLock.kind !== 'ok') throw new Error(`examples/starter: no usable lock (${starterLock.kind}); run bakeoff validate examples/starter`);
const lockedOrders = (task) => (suites[0].tasks.includes(task) ? starterLock.lock.tasks[task.id]?.orders : undefined);
const isolation = await createIsolation({ controls: suites[0].controls, backend: 'bwrap' });
const env = baseEnv();

// CPU seconds beside wall seconds: on a shared machine wall time mostly measures the neighbours.
// This process (and every host-side process it starts) in a cpuacct group of its own, plus what
// each sandboxed command's own group reports (ExecResult.cpu); cgroup v2: this process's own CPU only.
const CPUACCT = '/sys/fs/cgroup/cpuacct';
const myGroup = existsSync(CPUACCT) ? path.join(CPUACCT, `bench-grading-trust-${process.pid}`) : null;
if (myGroup) { mkdirSync(myGroup); writeFileSync(path.join(myGroup, 'cgroup.procs'), String(process.pid)); }
let sandboxCpuMs = 0;
const sandbox = { ...isolation.sandbox, exec: async (request) => { const r = await isolation.sandbox.exec(request); sandboxCpuMs += r.cpu?.cpuMs ?? 0; return r; } };
const hostCpuMs = () => (myGroup ? Number(readFileSync(path.join(myGroup, 'cpuacct.usage'), 'utf8')) / 1e6 : (process.cpuUsage().user + process.cpuUsage().system) / 1000);
/** Starts a measurement; the returned function gives `{ wall, cpu }` in seconds since. */
function measure() {
  const [t, host, boxed] = [performance.now(), hostCpuMs(), sandboxCpuMs];
  return () => ({ wall: (performance.now() - t) / 1000, cpu: (hostCpuMs() - host + sandboxCpuMs - boxed) / 1000 });
}
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

const hiddenDirs = (task) => task.orders.map((o) => o.hiddenDir);

async function timeBare(task, prepared, i) {
  const dir = path.join(scratch, `${task.id}-bare-${i}`);
  const { ws } = await goldWorkspace(task, prepared, path.join(dir, 'w'));
  try {
    await placeHiddenFiles(ws.dir, hiddenDirs(task));
    const done = measure();
    await sandbox.exec({
      command: task.manifest.test.command,
      cwd: ws.dir,
      env,
      timeoutMs: 300_000,
      network: 'none',
      outputPath: path.join(dir, 'out.log'),
      binds: [{ path: ws.dir, writable: true }],
    });
    return done();
  } finally {
    await ws.dispose();
  }
}

async function timeRound2(task, prepared, i, controls) {
  const dir = path.join(scratch, `${task.id}-round2-${i}`);
  const { ws, changed } = await goldWorkspace(task, prepared, path.join(dir, 'w'));
  try {
    const runner = getTestRunner(task.manifest.test.format);
    const done = measure();
    const tree = await buildGradingTree({
      repoDir: ws.dir, preparedRepo: prepared, runner, testFiles: task.manifest.test.files ?? runner.testFiles,
      changedPaths: changed, hiddenDirs: hiddenDirs(task), expectedIds: [],
    });
    await runTests({
      sandbox, repoDir: ws.dir, scratchDir: path.join(dir, 'tests'), command: task.manifest.test.command,
      format: task.manifest.test.format, report: task.manifest.test.report, outDir: path.join(dir, 'out'), env, timeoutMs: 300_000,
      outputBytes: controls.outputMb * MB, configSource: prepared, binds: tree.binds,
    });
    return done();
  } finally {
    await ws.dispose();
  }
}

/** runGradedTests; with `orders` (the lock's) its expected tests, and with `groups` tripwire groups of their fail-to-pass tests. */
async function timeNow(task, prepared, i, controls, orders, groups) {
  const dir = path.join(scratch, `${task.id}-${groups ? 'now' : 'wires'}-${i}`);
  const failToPass = orders ? orders.flatMap((o) => o.failToPass) : [];
  const { ws, changed } = await goldWorkspace(task, prepared, path.join(dir, 'w'));
  try {
    const done = measure();
    const graded = await runGradedTests({
      sandbox, repoDir: ws.dir, preparedRepo: prepared, test: task.manifest.test, hiddenDirs: hiddenDirs(task),
      expectedIds: orders ? [...failToPass, ...orders.flatMap((o) => o.passToPass)] : [], templateIds: groups ? failToPass : [],
      changedPaths: changed, outDir: path.join(dir, 'out'), scratchDir: dir, env, timeoutMs: 300_000,
      outputBytes: controls.outputMb * MB,
    });
    // a draw may place no group (every one would single out its test: decision 002); that grading has wires
    if (groups && failToPass.length > 0 && graded.tree.groups.length === 0) process.stderr.write(`${task.id}: no tripwire group placed in this draw (wires instead)\n`);
    const seconds = done();
    const failing = graded.report.tests.filter((t) => t.status === 'fail' || t.status === 'error').map((t) => t.id);
    if (graded.tripwires.flipped.length + graded.tripwires.wrong.length + graded.gradedChanged.length + failing.length > 0) {
      throw new Error(`${task.id}: gold does not pass as graded now: ${JSON.stringify({ exit: graded.testRun.exec.exitCode, failing, tripwires: graded.tripwires, gradedChanged: graded.gradedChanged })} (log ${graded.testRun.outputPath})`);
    }
    return seconds;
  } finally {
    await ws.dispose();
  }
}

console.log(`grading trust per graded order, gold change, sandboxed (medians of ${REPEATS}, interleaved)`);
const secs = (x) => `${x.toFixed(3).padStart(7)} s`;
const pct = (x) => `${(x * 100).toFixed(1).padStart(9)} %`;
const rows = [];
try {
  for (const suite of suites) {
    for (const task of suite.tasks) {
      if (ONLY && !ONLY.has(task.id)) continue;
      if (task.manifest.grading !== 'tests' || task.id === 'unittest-roman') continue;
      const prepared = await prepareTask({ task, controls: suite.controls, isolation, env, cacheDir });
      if (!prepared.ok) throw new Error(`${task.id}: ${prepared.reason}`);
      const orders = lockedOrders(task);
      const [bare, round2, wires, now] = [[], [], [], []];
      for (let i = 0; i < REPEATS; i++) {
        bare.push(await timeBare(task, prepared.repo, i));
        round2.push(await timeRound2(task, prepared.repo, i, suite.controls));
        wires.push(await timeNow(task, prepared.repo, i, suite.controls, orders, false));
        if (orders) now.push(await timeNow(task, prepared.repo, i, suite.controls, orders, true));
      }
      rows.push({ task, orders, bare, round2, wires, now: orders ? now : wires });
      process.stderr.write(`${task.id}: ${REPEATS} repeats timed\n`);
    }
  }
  printTables(rows);
} finally {
  if (myGroup) { writeFileSync(path.join(CPUACCT, 'cgroup.procs'), String(process.pid)); rmdirSync(myGroup); }
  await disposeScratch(scratch);
  rmSync(path.dirname(starter), { recursive: true, force: true });
}

/** The figures in wall seconds and in CPU seconds. */
function printTables(rows) {
  for (const unit of ['wall', 'cpu']) {
    console.log(`\n${unit === 'wall' ? 'wall' : 'CPU'} seconds, medians of ${REPEATS}; added = now − round 2; pairs: the median of (now − round 2) / bare within each interleaved repeat`);
    console.log('runner      task                          bare cmd   round 2     wires       now     added  added/bare  pairs       groups/bare  now/bare−1 (pairs)');
    const shares = [];
    for (const { task, orders, ...t } of rows) {
      const col = (xs) => xs.map((x) => x[unit]);
      const [bare, round2, wires, now] = [col(t.bare), col(t.round2), col(t.wires), col(t.now)];
      const [b, r, w, n] = [median(bare), median(round2), median(wires), median(now)];
      const pairs = median(bare.map((x, i) => (now[i] - round2[i]) / x));
      const whole = median(bare.map((x, i) => (now[i] - x) / x));
      shares.push(pairs);
      const groups = orders ? pct((n - w) / b) : '          –';
      console.log(`${task.manifest.test.format.padEnd(12)}${task.id.padEnd(30)}${secs(b)} ${secs(r)} ${secs(w)} ${orders ? secs(n) : '      – '} ${secs(n - r)} ${pct((n - r) / b)} ${pct(pairs)} ${groups} ${pct(whole)}`);
    }
    console.log(`median over runners of the added ${unit} time (pairs): ${(median(shares) * 100).toFixed(1)} % of the bare test command (target < 5 % per runner)`);
  }
}
