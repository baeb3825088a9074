import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { openTaskCpuClock } from './task-cpu-clock.js';

interface Measured {
  tid: number;
  source: string;
  sleptNs: number;
  spunNs: number;
  /** process.cpuUsage (getrusage: every thread of the process) over the same spin. */
  processSpunUs: number;
}

/**
 * In a worker: opens its own clock, sleeps 300 ms (Atomics.wait), then spins until its clock
 * says 200 ms. Tells the host its tid first and waits, so the host can read the same thread
 * from outside over the same spin.
 */
const WORKER = `
import { parentPort } from 'node:worker_threads';
import { currentThreadId, openThreadCpuClock } from ${JSON.stringify(new URL('./thread-cpu-clock.mjs', import.meta.url).href)};
const clock = openThreadCpuClock();
const gate = new Int32Array(new SharedArrayBuffer(4));
parentPort.postMessage({ tid: currentThreadId(), gate: gate.buffer });
Atomics.wait(gate, 0, 0);
const s0 = clock.readNs();
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
const s1 = clock.readNs();
const p0 = process.cpuUsage();
while (clock.readNs() - s1 < 200e6) {}
const p1 = process.cpuUsage(p0);
parentPort.postMessage({ tid: currentThreadId(), source: clock.source, sleptNs: s1 - s0, spunNs: clock.readNs() - s1, processSpunUs: p1.user + p1.system });
// Stay alive until the host has read this thread's clock from outside: once the script ends the
// thread exits and its /proc entry reads ESRCH.
Atomics.wait(gate, 0, 1);
`;

describe('the per-thread CPU clock', () => {
  it('counts only its own thread: nothing while it sleeps, its spin as getrusage counts it, and the host reads the same from outside', async () => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(WORKER)}`));
    let hostNs = 0;
    const m = await new Promise<Measured>((resolve, reject) => {
      worker.on('error', reject);
      worker.once('message', ({ tid, gate }: { tid: number; gate: SharedArrayBuffer }) => {
        const host = openTaskCpuClock(tid)!;
        const before = host.readNs();
        const flag = new Int32Array(gate);
        worker.once('message', (result: Measured) => {
          // The worker waits on the gate until this read: its thread still exists.
          const after = host.readNs();
          host.close();
          Atomics.store(flag, 0, 2);
          Atomics.notify(flag, 0);
          if (after === undefined || before === undefined) reject(new Error('the worker thread was gone before the host read its clock'));
          else {
            hostNs = after - before;
            resolve(result);
          }
        });
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
      });
    });
    await worker.terminate();
    expect(m.source).toBe('/proc/thread-self/schedstat');
    expect(m.sleptNs / 1e6).toBeLessThan(5);
    expect(m.spunNs / 1e6).toBeGreaterThanOrEqual(200);
    expect(m.spunNs / 1e6).toBeLessThan(210);
    // getrusage counts every thread of the process (the idle main thread, GC helpers) and ticks
    // at its own granularity, so it may say a little more, never much less.
    expect(m.processSpunUs / 1e3).toBeGreaterThan(190);
    expect(m.processSpunUs / 1e3).toBeLessThan(260);
    // The host's view of the thread spans the sleep and the spin.
    expect(hostNs / 1e6).toBeGreaterThanOrEqual(m.spunNs / 1e6 - 5);
    expect(hostNs / 1e6).toBeLessThan(m.spunNs / 1e6 + 15);
  });
});
