// Fleet throughput when the work is waiting on the model: the same bake through `bakeoff run
// --queue` with 1, 2 and 4 `bakeoff worker`s (one run at a time each) on one Redis, all on this
// machine. The agent is a real CLI (pi) against bakeoff's scripted model, which waits DELAY
// seconds before each answer (a replay file's `delaySec`): TURNS answers per session, the first
// TURNS-1 a shell command for pi's bash tool (`ls`), the last saying it is done. Every run is
// TURNS model requests of DELAY s, plus what the run costs around it (sandbox, the CLI's start,
// workspace, grading, the queue). A real agent session is many turns of model time; TURNS=1 is
// the harshest case (the run's own costs weigh the most).
//
// Prints runs per minute as a ratio to 1 worker (over the coordinator's whole command, over the
// span from the first attempt's start to the last run's end, and in steady state: without each
// worker's one-off runner opening and the end of the bake), the coordinator's own time per
// run (enqueueing it + from a worker's completion to the run stored in SQLite, median), where the
// time goes (a worker's one-off runner opening; per run: the model's wait, the rest of the
// session, grading, the rest of the run, the worker's gap between runs), the CPU a run costs
// (in the sandboxes, in the workers, in the coordinator) and how busy the machine's cores were
// (other users' load included: on a shared machine, read the ratios with it).
// Also the fleet's trust checks per run (the seals of job, attempt, spent requests and result, the
// worker's allow-list, the coordinator opening them; decision 014), as measured inside each run
// of the bake (median, target < 5 ms), and in this process on a job and a result the size of the
// bake's, as a ratio to the JSON round trip those values cost crossing Redis anyway.
// Usage: npm run build && node bench/queue-throughput.mjs
//   BENCH_RUNS (runs per task, default 12: 24 runs, 6 per worker at 4 workers), BENCH_DELAY (s, default 5),
//   BENCH_TURNS (model answers per session, default 3),
//   BENCH_FLEETS (default 1,2,4)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';

const ROOT = path.resolve(import.meta.dirname, '..');
// every fleet process signs and checks with the fleet secret
process.env.BAKEOFF_FLEET_SECRET ??= `bench-fleet-secret-${process.pid}-0123456789abcdef0123456789`;
const BIN = path.join(ROOT, 'bin/bakeoff.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 12);
const DELAY = Number(process.env.BENCH_DELAY ?? 5);
const TURNS = Number(process.env.BENCH_TURNS ?? 3);
const FLEETS = (process.env.BENCH_FLEETS ?? '1,2,4').split(',').map(Number);
const AGENT = 'pi:anthropic/claude-sonnet-4-5';

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/**
 * Runs per minute of n workers in steady state: n over the seconds a worker spends per run
 * (from an attempt's start to the next one's, averaged over every run), leaving out each
 * worker's one-off runner opening and the end of the bake, when some workers have nothing left.
 */
const steadyRate = (runs, n) => {
  const ms = (iso) => Date.parse(iso);
  let busy = 0;
  for (const name of new Set(runs.map((r) => r.worker))) {
    const mine = runs.filter((r) => r.worker === name).sort((a, b) => ms(a.attempt_at) - ms(b.attempt_at));
    const opening = ms(mine[0].started_at) - ms(mine[0].attempt_at);
    const lastGap = mine.length > 1 ? ms(mine.at(-1).attempt_at) - ms(mine.at(-2).finished_at) : 0;
    busy += ms(mine.at(-1).finished_at) - ms(mine[0].attempt_at) - opening + lastGap;
  }
  return (n * 60_000) / (busy / runs.length);
};

/** Busy and total jiffies of all cores (/proc/stat), to say how much of the machine a fleet used. */
const cpuTimes = () => {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = f.map(Number);
  const idle = n[3] + n[4];
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
};

/** CPU seconds a process and the children it waited for have used (/proc/PID/stat utime, stime, cutime, cstime). */
const TICK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const cpuOf = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK;
};

/**
 * CPU seconds used inside the sandboxes of some bakeoff processes: every 100 ms, each process in
 * their command cgroups (named `<bakeoff pid>-…`) is read from /proc, and its highest
 * utime+stime (+ its waited children's) counts. A sandbox's processes are not children the
 * bakeoff process waits for, so its own rusage misses them; what a process does in its last
 * 100 ms, or a process living less than that, is missed here (a lower bound).
 */
function sampleSandboxCpu(owners) {
  const cgroupRoot = existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup/bakeoff' : '/sys/fs/cgroup/pids/bakeoff';
  const seen = new Map();
  const sample = () => {
    let groups = [];
    try {
      groups = readdirSync(cgroupRoot).filter((g) => owners.some((pid) => g.startsWith(`${pid}-`)));
    } catch {
      return;
    }
    for (const g of groups) {
      let pids = [];
      try {
        pids = readFileSync(path.join(cgroupRoot, g, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
      } catch {
        continue;
      }
      for (const pid of pids) {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
          const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const key = `${pid}@${f[19]}`; // pid and start time: a reused pid is another process
          const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
          if (ticks > (seen.get(key) ?? 0)) seen.set(key, ticks);
        } catch {
          // gone between the listing and the read
        }
      }
    }
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    return [...seen.values()].reduce((a, b) => a + b, 0) / TICK;
  };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-queue-'));
const suite = path.join(tmp, 'tiny');
cpSync(path.join(ROOT, 'test/fixtures/suites/tiny'), suite, { recursive: true });
execFileSync('node', [BIN, 'validate', suite], { stdio: ['ignore', 'ignore', 'inherit'] });
const script = path.join(tmp, 'slow-model.json');
const turns = [...Array.from({ length: TURNS - 1 }, () => ({ tool: { name: 'bash', args: { command: 'ls' } } })), { text: 'Done.' }];
writeFileSync(script, JSON.stringify({ delaySec: DELAY, replies: turns }));

const port = await freePort();
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', tmp, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
await sleep(500);

const rows = [];
const children = new Set([redis]);
// whatever happens, nothing of the bench is left running
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});
for (const n of FLEETS) {
  const db = n; // one Redis database per fleet size: nothing of one bake is seen by the next
  const url = `redis://127.0.0.1:${port}/${db}`;
  const workers = Array.from({ length: n }, (_, i) => spawn('node', [BIN, 'worker', '--queue', url, '--name', `b${n}-${i}`, '--concurrency', '1'], { stdio: ['ignore', 'ignore', 'pipe'] }));
  for (const w of workers) children.add(w);
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
  const cpu0 = cpuTimes();
  const workersCpu0 = workers.reduce((sum, w) => sum + cpuOf(w.pid), 0);
  const coordinatorCpu0 = cpuOf(process.pid) - process.cpuUsage().user / 1e6 - process.cpuUsage().system / 1e6; // the bench's waited children
  const t0 = performance.now();
  const stopSampling = sampleSandboxCpu(workers.map((w) => w.pid));
  const stdout = await new Promise((resolve, reject) => {
    const coordinator = spawn('node', [BIN, 'run', suite, '--agent', AGENT, '--upstream', `scripted:${script}`, '--runs', String(RUNS), '--queue', url, '--out', out, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    coordinator.stdout.on('data', (c) => (text += c));
    coordinator.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`bakeoff run --queue exited ${code}`))));
  });
  const sandboxCpu = stopSampling();
  const minutes = (performance.now() - t0) / 60_000;
  const cpu1 = cpuTimes();
  // what the workers ran outside a sandbox (git, tar) counts in their own; sandboxes are sampled above
  const workersCpu = workers.reduce((sum, w) => sum + cpuOf(w.pid), 0) - workersCpu0;
  const coordinatorCpu = cpuOf(process.pid) - process.cpuUsage().user / 1e6 - process.cpuUsage().system / 1e6 - coordinatorCpu0;
  const json = JSON.parse(stdout.toString());
  const store = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  const runs = store
    .prepare(
      `SELECT r.id, r.started_at, r.finished_at, r.agent_sec, r.grade_sec, r.outcome, r.reason,
              (SELECT sum(latency_ms) FROM requests q WHERE q.run_id = r.id) AS model_ms,
              a.worker, a.started_at AS attempt_at
         FROM runs r JOIN attempts a ON a.run_id = r.id AND a.state = 'recorded'`,
    )
    .all();
  store.close();
  const notOk = runs.filter((r) => r.outcome === 'void');
  if (notOk.length > 0) console.error(`bench: ${notOk.length} void run(s) with ${n} worker(s): ${notOk.map((r) => r.reason).join(', ')}`);
  const ms = (iso) => Date.parse(iso);
  const first = Math.min(...runs.map((r) => ms(r.attempt_at)));
  const last = Math.max(...runs.map((r) => ms(r.finished_at)));
  const spanMin = (last - first) / 60_000;
  // per worker, from the end of one run to the start of its next attempt: handing back, taking the next job
  const gaps = [];
  for (const name of new Set(runs.map((r) => r.worker))) {
    const mine = runs.filter((r) => r.worker === name).sort((a, b) => ms(a.attempt_at) - ms(b.attempt_at));
    for (let i = 1; i < mine.length; i++) gaps.push(ms(mine[i].attempt_at) - ms(mine[i - 1].finished_at));
  }
  if (process.env.BENCH_VERBOSE) {
    // each worker's timeline, seconds from the first attempt: when each attempt started, its run started and ended
    for (const name of [...new Set(runs.map((r) => r.worker))].sort()) {
      const mine = runs.filter((r) => r.worker === name).sort((a, b) => ms(a.attempt_at) - ms(b.attempt_at));
      const t = (iso) => ((ms(iso) - first) / 1000).toFixed(1);
      console.error(`  ${name}: ${mine.map((r) => `${t(r.attempt_at)}/${t(r.started_at)}–${t(r.finished_at)}`).join('  ')}`);
    }
  }
  rows.push({
    workers: n,
    runs: json.ran,
    minutes,
    perMin: json.ran / minutes,
    spanPerMin: json.ran / spanMin,
    enqueue: json.fleet.enqueueMsPerRun,
    ingest: json.fleet.medianIngestMs,
    trust: json.fleet.medianTrustMs,
    out,
    model: median(runs.map((r) => r.model_ms ?? 0)) / 1000,
    session: median(runs.map((r) => r.agent_sec - (r.model_ms ?? 0) / 1000)),
    grade: median(runs.map((r) => r.grade_sec)),
    restOfRun: median(runs.map((r) => (ms(r.finished_at) - ms(r.started_at)) / 1000 - r.agent_sec - r.grade_sec)),
    // a worker's first run of an agent first opens its runner (suite bundle checked, agent resolved: the CLI's --version, the sandbox)
    opening: median([...new Set(runs.map((r) => r.worker))].map((name) => {
      const firstRun = runs.filter((r) => r.worker === name).sort((a, b) => ms(a.attempt_at) - ms(b.attempt_at))[0];
      return (ms(firstRun.started_at) - ms(firstRun.attempt_at)) / 1000;
    })),
    gap: median(gaps) / 1000,
    perRun: median(runs.map((r) => (ms(r.finished_at) - ms(r.attempt_at)) / 1000)),
    steadyPerMin: steadyRate(runs, n),
    cpu: (cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total),
    workerCpuPerRun: workersCpu / runs.length,
    sandboxCpuPerRun: sandboxCpu / runs.length,
    coordinatorCpuPerRun: coordinatorCpu / runs.length,
  });
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r() : w.on('exit', r)))));
}
redis.kill('SIGTERM');
const sealBench = await sealCost(rows.at(-1).out);
rmSync(tmp, { recursive: true, force: true });

/**
 * Sealing and opening (HMAC-SHA256 over the JSON text) a job and a result the size of the bake's
 * (a stored run's record, sessions and checks), per run, against the JSON round trip the same
 * values cost crossing Redis anyway; medians of 200 rounds.
 */
async function sealCost(results) {
  const { createFleetSeal } = await import(path.join(ROOT, 'dist/queue/seal.js'));
  const seal = createFleetSeal(Buffer.from(process.env.BAKEOFF_FLEET_SECRET));
  const store = new Database(path.join(results, 'bakeoff.db'), { readonly: true });
  const record = store.prepare('SELECT * FROM runs LIMIT 1').get();
  const sessions = store.prepare('SELECT * FROM sessions WHERE run_id = ?').all(record.id);
  const checks = store.prepare('SELECT * FROM checks WHERE run_id = ?').all(record.id);
  const requests = store.prepare('SELECT * FROM requests WHERE run_id = ?').all(record.id);
  store.close();
  const job = { schemaVersion: 2, bakeoffVersion: '0.1.0', suiteId: 'tiny', suiteHash: 'a'.repeat(64), bundleSha256: 'b'.repeat(64), runId: record.id, task: record.task, replay: 0, agentSpec: AGENT, agentDigest: 'c'.repeat(64), agentId: AGENT, agentOptions: { cwd: ROOT, upstream: 'scripted:x#abc' }, enqueuedAt: Date.now() };
  const result = { kind: 'run', attempt: 1, token: 'd'.repeat(32), worker: 'w', record, sessions, checks, artifacts: { key: 'k', sha256: 'e'.repeat(64), bytes: 1 } };
  const perRun = () => {
    const t0 = performance.now();
    seal.open('job', seal.seal('job', job));
    seal.open('attempt', seal.seal('attempt', { worker: 'w', startedAt: new Date().toISOString(), token: 'd'.repeat(32) }));
    for (const r of requests) seal.open('spent', seal.seal('spent', r));
    seal.open('result', seal.seal('result', result));
    return performance.now() - t0;
  };
  const roundTrip = () => {
    const t0 = performance.now();
    JSON.parse(JSON.stringify(job));
    for (const r of requests) JSON.parse(JSON.stringify(r));
    JSON.parse(JSON.stringify(result));
    return performance.now() - t0;
  };
  for (let i = 0; i < 50; i++) perRun(), roundTrip();
  const sealed = median(Array.from({ length: 200 }, perRun));
  const plain = median(Array.from({ length: 200 }, roundTrip));
  return { sealed, plain, resultBytes: JSON.stringify(result).length, requests: requests.length };
}

const base = rows[0].perMin;
const spanBase = rows[0].spanPerMin;
const f = (x, w, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–').padStart(w);
console.log(`queue throughput: tiny suite, ${AGENT} against a scripted model waiting ${DELAY} s per answer, ${TURNS} answer(s) per session, ${RUNS} runs per task; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('workers  runs  wall (s)  runs/min  × 1 worker  runs/min (span)  × 1 worker  runs/min (steady)  × 1 worker  coordinator ms/run (enqueue + ingest, median)  cores busy');
const steadyBase = rows[0].steadyPerMin;
for (const r of rows) {
  console.log(
    `${String(r.workers).padStart(7)}  ${String(r.runs).padStart(4)}  ${f(r.minutes * 60, 8, 1)}  ${f(r.perMin, 8, 1)}  ${f(r.perMin / base, 10)}  ${f(r.spanPerMin, 15, 1)}  ${f(r.spanPerMin / spanBase, 10)}  ${f(r.steadyPerMin, 17, 1)}  ${f(r.steadyPerMin / steadyBase, 10)}  ${f(r.enqueue + r.ingest, 8, 1)} (${r.enqueue.toFixed(2)} + ${r.ingest})${' '.repeat(24)}  ${f(r.cpu * 100, 5, 0)} %`,
  );
}
console.log(`CPU per run (s): in the sandboxes (the CLI, grading; sampled, at least) · the workers' own (and their unsandboxed children) · the coordinator's · total; at most ${os.cpus().length} cores / total runs per second`);
for (const r of rows) {
  const total = r.sandboxCpuPerRun + r.workerCpuPerRun + r.coordinatorCpuPerRun;
  console.log(`${String(r.workers).padStart(7)}  ${f(r.sandboxCpuPerRun, 6)} · ${f(r.workerCpuPerRun, 6)} · ${f(r.coordinatorCpuPerRun, 6)} · ${f(total, 6)}  (≤ ${f((os.cpus().length / total) * 60, 5, 1)} runs/min on this machine's cores)`);
}
console.log(
  `fleet trust checks per run (seals of the job, the attempt, each spent request and the result; the worker's allow-list; the coordinator opening them), measured in the bake, median ms (target < 5): ${rows.map((r) => `${r.workers} worker(s) ${f(r.trust, 0, 3)}`).join(' · ')}`,
);
console.log(
  `  in this process, on a job and a ${(sealBench.resultBytes / 1024).toFixed(1)} KiB result with ${sealBench.requests} spent request(s): seal + open ${sealBench.sealed.toFixed(3)} ms per run vs ${sealBench.plain.toFixed(3)} ms for their JSON round trip alone (× ${(sealBench.sealed / sealBench.plain).toFixed(2)})`,
);
console.log("where the time goes (medians, s): a worker's first job opening its runner (once per worker) · per run: model wait · rest of the session (the CLI) · grading · rest of the run · attempt start → run end · worker gap between runs");
for (const r of rows) {
  console.log(`${String(r.workers).padStart(7)}  ${f(r.opening, 6)} · ${f(r.model, 6)} · ${f(r.session, 6)} · ${f(r.grade, 6)} · ${f(r.restOfRun, 6)} · ${f(r.perRun, 6)} · ${f(r.gap, 6)}`);
}
