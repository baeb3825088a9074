import { afterEach, describe, expect, it } from 'vitest';
import { acquireCheckWorker, MAX_IDLE_WORKERS, releaseCheckWorker, stopIdleCheckWorkers } from './check-worker-pool.js';
import { runChecks } from './run-checks.js';
import type { CheckProgram } from './check-worker-protocol.js';

const limits = { memoryBytes: 32 << 20, stackBytes: 1 << 20, cpuMs: 2000, wallBackstopMs: 40_000, maxResultBytes: 1 << 20 };
const program = (source: string): CheckProgram => ({ files: { 'src/index.js': source }, entry: 'src/index.js', limits });
const backstop = { cpuMs: 3500, wallMs: 41_500 };

afterEach(() => stopIdleCheckWorkers());

describe('the check worker pool', () => {
  it('hands a released worker to the next batch, of another program, which sees nothing the first one left', async () => {
    const first = await acquireCheckWorker();
    const a = await first.run({ program: program('globalThis.leak = 41;\nexport const set = () => (globalThis.leak = 42);\n'), requests: [{ call: 'set', inputJson: 'null' }], backstop });
    expect(a.outcomes).toMatchObject([{ kind: 'value', json: '42' }]);
    await releaseCheckWorker(first, a.reusable);
    const second = await acquireCheckWorker();
    expect(second).toBe(first);
    const b = await second.run({ program: program('export const read = () => typeof globalThis.leak;\n'), requests: [{ call: 'read', inputJson: 'null' }], backstop });
    expect(b.outcomes).toMatchObject([{ kind: 'value', json: '"undefined"' }]);
    await releaseCheckWorker(second, b.reusable);
  });

  it('never hands out a worker that was released as not reusable, or that has exited', async () => {
    const broken = await acquireCheckWorker();
    await releaseCheckWorker(broken, false);
    expect(broken.alive).toBe(false);
    const next = await acquireCheckWorker();
    expect(next).not.toBe(broken);
    await releaseCheckWorker(next, true);
    await next.stop(); // exits while idle in the pool
    const third = await acquireCheckWorker();
    expect(third).not.toBe(next);
    expect(third.alive).toBe(true);
    await releaseCheckWorker(third, true);
  });

  it(`keeps at most ${MAX_IDLE_WORKERS} idle workers`, async () => {
    const workers = await Promise.all(Array.from({ length: MAX_IDLE_WORKERS + 1 }, () => acquireCheckWorker()));
    for (const worker of workers) await releaseCheckWorker(worker, true);
    expect(workers.filter((w) => w.alive)).toHaveLength(MAX_IDLE_WORKERS);
  });

  it('serves consecutive gradings from one worker thread; a check stopped at its CPU limit leaves the next ones passing', async () => {
    const source = 'export const add = ({ a, b }) => a + b;\nexport const spin = () => { for (;;) {} };\n';
    const checks = [1, 2, 3].map((i) => ({ id: `c${i}`, call: 'add', input: { a: i, b: 1 }, expected: i + 1 }));
    const before = await acquireCheckWorker();
    await releaseCheckWorker(before, true);
    expect((await runChecks({ files: { 'src/index.js': source }, entry: 'src/index.js', checks })).every((r) => r.passed)).toBe(true);
    const after = await acquireCheckWorker();
    expect(after.tid).toBe(before.tid);
    await releaseCheckWorker(after, true);
    const spun = await runChecks({ files: { 'src/index.js': source }, entry: 'src/index.js', checks: [{ id: 's', call: 'spin', input: null, expected: 0 }, ...checks], limits: { cpuMs: 200 } });
    expect(spun.map((r) => r.passed)).toEqual([false, true, true, true]);
    expect(spun[0]).toMatchObject({ failure: expect.stringMatching(/^(timeout|wall-backstop)$/) });
  });
});
