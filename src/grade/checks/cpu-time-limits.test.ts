import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckWorkerData, VmOutcome } from './check-worker-protocol.js';
import { runChecksInWorker } from './run-checks-in-worker.js';
import { startCheckWorker, type HostBackstop } from './start-check-worker.js';

// The limits called CPU time are enforced on the CPU time of the worker thread that runs the
// check. These tests make the machine busy for real (busy-loop processes pinned to the core the
// worker is pinned to) or starve the worker thread of CPU (a cgroup v1 cpu quota on that one
// thread), and look at which limit stopped the check and how it was reported.

const SOURCE = `
export const forever = () => { for (;;) {} };
export const spin = (n) => { let s = 0; for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003; return s; };
export const ok = (x) => x + 1;
`;
const data = (cpuMs: number, wallBackstopMs: number): CheckWorkerData => ({
  files: { 'src/index.js': SOURCE },
  entry: 'src/index.js',
  limits: { memoryBytes: 32 << 20, stackBytes: 1 << 20, cpuMs, wallBackstopMs, maxResultBytes: 1 << 20 },
});
const spinResult = (n: number): string => {
  let s = 0;
  for (let i = 0; i < n; i++) s = (s + i * 7) % 1000003;
  return String(s);
};

/** Runs one batch in a fresh worker whose thread is first handed to `prepare` (pinning, cgroup). */
async function runOn(limits: CheckWorkerData, backstop: HostBackstop, calls: Array<[string, unknown]>, prepare: (tid: number) => Promise<void> | void = () => undefined): Promise<VmOutcome[]> {
  const worker = await startCheckWorker({ data: limits, backstop });
  try {
    expect(worker.tid).toBeGreaterThan(0);
    await prepare(worker.tid!);
    return [...(await worker.run(calls.map(([call, input]) => ({ call, inputJson: JSON.stringify(input) })))).outcomes];
  } finally {
    await worker.stop();
  }
}

function busyLoops(count: number, cpu: string): ChildProcess[] {
  return Array.from({ length: count }, () => spawn('taskset', ['-c', cpu, process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }));
}
const pin = (cpu: string) => (tid: number) => void execFileSync('taskset', ['-p', '-c', cpu, String(tid)], { stdio: 'ignore' });

describe('a check on a busy core (three busy loops pinned to the worker thread\'s core)', () => {
  const LIMIT_MS = 500;
  let loops: ChildProcess[] = [];
  let n = 0;
  let quiet: VmOutcome | undefined;
  beforeAll(async () => {
    // Calibrate a CPU-bound check to about 40% of the limit on this machine, quiet.
    const [probe] = await runOn(data(60_000, 120_000), { cpuMs: 61_000, wallMs: 121_000 }, [['spin', 2_000_000]], pin('0'));
    n = Math.round((2_000_000 * 0.4 * LIMIT_MS) / probe!.cpuMs!);
    [quiet] = await runOn(data(LIMIT_MS, 20 * LIMIT_MS), { cpuMs: LIMIT_MS + 1500, wallMs: 21 * LIMIT_MS }, [['spin', n]], pin('0'));
    loops = busyLoops(3, '0');
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  afterAll(() => {
    for (const loop of loops) loop.kill('SIGKILL');
  });

  it('passes a CPU-bound check near the limit as it does on a quiet core, though its wall time is past the limit', async () => {
    expect(quiet).toMatchObject({ kind: 'value', json: spinResult(n) });
    const [loaded] = await runOn(data(LIMIT_MS, 20 * LIMIT_MS), { cpuMs: LIMIT_MS + 1500, wallMs: 21 * LIMIT_MS }, [['spin', n]], pin('0'));
    expect(loaded).toMatchObject({ kind: 'value', json: spinResult(n) });
    // The core was shared four ways: a wall-clock deadline of 500 ms would have failed it.
    expect(loaded!.durationMs).toBeGreaterThan(LIMIT_MS);
    expect(loaded!.cpuMs).toBeLessThan(LIMIT_MS);
  });

  it('stops an infinite loop at its CPU limit with the CPU-limit failure, not at a wall-clock deadline', async () => {
    const [stopped, next] = await runOn(data(LIMIT_MS, 20 * LIMIT_MS), { cpuMs: LIMIT_MS + 1500, wallMs: 21 * LIMIT_MS }, [['forever', null], ['ok', 1]], pin('0'));
    expect(stopped).toMatchObject({ kind: 'failure', failure: 'timeout', message: expect.stringMatching(/^the check used more than its 500 ms of CPU time: \d+ ms of CPU time in \d+ ms of wall time/) });
    expect(stopped!.cpuMs).toBeGreaterThanOrEqual(LIMIT_MS);
    expect(stopped!.cpuMs).toBeLessThan(LIMIT_MS + 30);
    expect(stopped!.durationMs).toBeGreaterThan(2 * LIMIT_MS);
    expect(next).toMatchObject({ kind: 'value', json: '2' });
  });
});

describe('a check the machine gives no CPU', () => {
  it('is stopped by the wall-clock backstop in the VM, reported as the backstop, when its thread gets 1% of a CPU', async () => {
    const group = await threadCpuGroup(1);
    try {
      const [starved] = await runOn(data(1000, 1500), { cpuMs: 2500, wallMs: 5000 }, [['forever', null]], (tid) => group.add(tid));
      expect(starved).toMatchObject({
        kind: 'failure',
        failure: 'wall-backstop',
        message: expect.stringMatching(/^the check ran past the wall-clock backstop of 1500 ms, not its CPU limit: \d+ ms of CPU time in \d+ ms of wall time, under its 1000 ms/),
      });
      expect(starved!.cpuMs).toBeLessThan(200);
      expect(starved!.durationMs).toBeGreaterThanOrEqual(1500);
    } finally {
      await group.remove();
    }
  });

  it('is terminated by the host wall-clock backstop, reported as the backstop, when its worker blocks without using CPU', async () => {
    // A stand-in worker that speaks the protocol, reports its thread id and then sleeps.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-sleeping-worker-'));
    try {
      const file = path.join(dir, 'sleeps.mjs');
      const clock = pathToFileURL(path.join(import.meta.dirname, 'thread-cpu-clock.mjs')).href;
      writeFileSync(
        file,
        `import { parentPort } from 'node:worker_threads';
import { currentThreadId } from ${JSON.stringify(clock)};
parentPort.on('message', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30_000));
parentPort.postMessage({ type: 'ready', tid: currentThreadId() });`,
      );
      const outcomes = await runChecksInWorker({ data: data(500, 10_000), requests: [{ call: 'ok', inputJson: '1' }], backstop: { cpuMs: 300, wallMs: 800 }, workerUrl: pathToFileURL(file) });
      expect(outcomes[0]).toMatchObject({
        kind: 'failure',
        failure: 'wall-backstop',
        message: expect.stringMatching(/^the check ran past the host's wall-clock backstop of 800 ms, not its CPU limit \(it had used \d+ ms of CPU time, under the host's CPU backstop of 300 ms;/),
      });
      expect(outcomes[0]!.cpuMs).toBeLessThan(50);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const CPU_ROOT = '/sys/fs/cgroup/cpu';

/** A cgroup v1 cpu group allowing `percent` of one CPU, for single threads; named so bakeoff's stale-group sweep would remove a leftover. */
async function threadCpuGroup(percent: number): Promise<{ add(tid: number): Promise<void>; remove(): Promise<void> }> {
  if (!existsSync(`${CPU_ROOT}/cpu.cfs_quota_us`)) throw new Error(`${CPU_ROOT}: no cgroup v1 cpu controller; this test starves a thread of CPU with one (run as root)`);
  const dir = `${CPU_ROOT}/bakeoff/${process.pid}-cpu-test`;
  await mkdir(dir, { recursive: true });
  await writeFile(`${dir}/cpu.cfs_period_us`, '100000');
  await writeFile(`${dir}/cpu.cfs_quota_us`, String(Math.round(percent * 1000)));
  return {
    add: (tid) => writeFile(`${dir}/tasks`, String(tid)),
    remove: async () => {
      for (const tid of (await readFile(`${dir}/tasks`, 'utf8')).split('\n').filter(Boolean)) await writeFile(`${CPU_ROOT}/tasks`, tid).catch(() => undefined);
      await rmdir(dir);
    },
  };
}
