// A fixed CPU loop sandboxed vs unsandboxed, beside sibling sandboxes, on a loaded machine
// (decision 011): each sandbox must weigh like an ordinary process (target: sandboxed ≤ 1.5× the
// unsandboxed time). For comparison, the same loop in a cgroup under one shared parent of
// weight 1024 (how bakeoff placed every sandbox before), its siblings under that parent too.
//
// Usage: npm run build && node bench/sandbox-cpu-weight.mjs
//   BENCH_LOOPS (32) busy loops at the top of the hierarchy, BENCH_SIBLINGS (8) sandboxes
//   each running a busy loop, BENCH_REPEATS (5), BENCH_WORK (loop count of the fixed work).
// Needs root and cgroups. Every busy loop runs under `timeout`, so none outlives the bench.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createIsolation } from '../dist/sandbox/isolation.js';
import { DEFAULT_SANDBOX } from '../dist/sandbox/registry.js';
import { Controls } from '../dist/suite/schema.js';
import { median } from './median.mjs';

const LOOPS = Number(process.env.BENCH_LOOPS ?? 32);
const SIBLINGS = Number(process.env.BENCH_SIBLINGS ?? 8);
const N = Number(process.env.BENCH_REPEATS ?? 5);
const WORK = Number(process.env.BENCH_WORK ?? 300_000);
// the work times itself, so sandbox start-up is not in the figure
const timed = `s=$(date +%s%N); i=0; while [ $i -lt ${WORK} ]; do i=$((i+1)); done; e=$(date +%s%N); echo $(( (e - s) / 1000000 ))`;

const out = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-'));
const { sandbox } = await createIsolation({ controls: Controls.parse({ cpus: 2 }), backend: DEFAULT_SANDBOX });
const request = (command, name, signal) => ({ command, cwd: '/tmp', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 900_000, network: 'none', outputPath: path.join(out, name), binds: [], ...(signal ? { signal } : {}) });

// an ordinary process: a session of its own (with autogroup scheduling, a session's processes share one weight)
// and at the top of the CPU hierarchy (bakeoff moved this process into its own weighted group)
const TOP = existsSync('/sys/fs/cgroup/cpu/cgroup.procs') ? '/sys/fs/cgroup/cpu/cgroup.procs' : '/sys/fs/cgroup/cgroup.procs';
const atTop = (command) => `echo $$ > ${TOP}; ${command}`;
const plain = () => Number(spawnSync('setsid', ['-w', '/bin/sh', '-c', atTop(timed)], { encoding: 'utf8' }).stdout.trim());
let n = 0;
const sandboxed = async () => {
  const name = `work-${n++}`;
  const result = await sandbox.exec(request(timed, name));
  return { ms: Number(readFileSync(path.join(out, name), 'utf8').trim()), cpu: result.cpu };
};

// the old layout: one parent of weight 1024 holding the measured group and its siblings
const V1 = existsSync('/sys/fs/cgroup/cpu/cpu.shares');
const PARENT = V1 ? `/sys/fs/cgroup/cpu/bakeoff-bench-parent-${process.pid}` : `/sys/fs/cgroup/bakeoff-bench-parent-${process.pid}`;
const inSharedParent = (name, command) => {
  const dir = path.join(PARENT, name);
  mkdirSync(dir, { recursive: true });
  return spawn('/bin/sh', ['-c', `echo $$ > ${dir}/cgroup.procs && exec timeout -s KILL 600 /bin/sh -c '${command}'`], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
};
const sharedParent = () =>
  new Promise((resolve) => {
    const child = inSharedParent(`work-${n++}`, timed);
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('close', () => resolve(Number(text.trim())));
  });

const quiet = median(await repeat(plain));
console.log(`fixed work (${WORK} shell loop steps), quiet machine: ${quiet} ms (median of ${N})`);

// each loop in a session of its own, like independent processes (one session's loops would share one autogroup weight)
const loops = Array.from({ length: LOOPS }, () => spawn('timeout', ['-s', 'KILL', '600', '/bin/sh', '-c', atTop(`exec ${process.execPath} -e 'for(;;){}'`)], { stdio: 'ignore', detached: true }));
const killGroup = (child) => {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // gone
  }
};
const stop = new AbortController();
const siblings = Array.from({ length: SIBLINGS }, (_, i) => sandbox.exec(request('while :; do :; done', `sibling-${i}`, stop.signal)));
let oldSiblings = [];
let result;
try {
  await new Promise((r) => setTimeout(r, 3000));
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  const p = [], s = [], held = [];
  for (let i = 0; i < N; i++) {
    p.push(plain());
    const r = await sandboxed();
    s.push(r.ms);
    held.push(r.cpu ? Math.round((100 * r.cpu.heldMs) / r.cpu.wallMs) : NaN);
  }
  // the old layout, beside the same loops: a parent of the default weight, its siblings in it too
  mkdirSync(PARENT, { recursive: true });
  if (!V1) writeFileSync(path.join(PARENT, 'cgroup.subtree_control'), '+cpu');
  oldSiblings = Array.from({ length: SIBLINGS }, (_, i) => inSharedParent(`sibling-${i}`, 'while :; do :; done'));
  const o = [];
  for (let i = 0; i < N; i++) o.push(await sharedParent());
  result = { load: load(), plain: median(p), sandboxed: median(s), shared: median(o), held: median(held) };
} finally {
  stop.abort();
  for (const c of [...loops, ...oldSiblings]) killGroup(c);
  await Promise.allSettled(siblings);
  await new Promise((r) => setTimeout(r, 500));
  spawnSync('sh', ['-c', `for d in ${PARENT}/*/; do rmdir "$d" 2>/dev/null; done; rmdir ${PARENT} 2>/dev/null`]);
  rmSync(out, { recursive: true, force: true });
}
console.log(`with ${LOOPS} busy loops and ${SIBLINGS} busy sibling sandboxes on ${os.availableParallelism()} CPUs (load ${result.load}), medians of ${N}:`);
console.log(`  unsandboxed                              ${result.plain} ms`);
console.log(`  sandboxed (own group, weight of one process) ${result.sandboxed} ms  ${(result.sandboxed / result.plain).toFixed(2)}x  (held back ${result.held} % of its wall time)`);
console.log(`  under one shared parent (the old layout)  ${result.shared} ms  ${(result.shared / result.plain).toFixed(2)}x`);

process.exit(0);

async function repeat(fn) {
  const xs = [];
  for (let i = 0; i < N; i++) xs.push(await fn());
  return xs;
}
