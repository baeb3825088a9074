import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../e2e/fleet-helpers.js';
import { packFolder } from '../../src/queue/tarball.js';
import { parseQueueUrl } from '../../src/queue/connection.js';
import { keys, PREFIX, QUEUE, type RunJob, type RunJobResult } from '../../src/queue/jobs.js';
import { createFleetSeal, openTexts, type Sealed } from '../../src/queue/seal.js';
import { startWorker, type ExecuteJob, type RunningWorker, type WorkerEvent } from '../../src/queue/work.js';
import { workerPolicy } from '../../src/queue/worker-policy.js';
import type { RunResult } from '../../src/run/index.js';
import { BAKEOFF_VERSION } from '../../src/version.js';

/*
 * The worker's side of the queue's rules, on Debian's redis-server and BullMQ, with a run that
 * the test ends when it wants (the `execute` a worker's owner gives it): the graceful stop's
 * three paths and the fence around a stale attempt. What a run does is the e2e tests' part.
 */

const seal = createFleetSeal(Buffer.from('s'.repeat(40)));

/** Runs the test lets end: `finish(id, n)` resolves the n-th execute of run `id` (from 0) with a plain record. */
function controlledRuns() {
  const waiting = new Map<string, (() => void)[]>();
  const started: string[] = [];
  const execute: ExecuteJob = async (job) => {
    started.push(job.runId);
    await new Promise<void>((resolve) => waiting.set(job.runId, [...(waiting.get(job.runId) ?? []), resolve]));
    const record = { id: job.runId, outcome: { kind: 'solved' } } as unknown as RunResult['record'];
    return { kind: 'run', result: { record, sessions: [], checks: [] } };
  };
  return {
    execute,
    started,
    finish: (id: string, n = 0) => waiting.get(id)?.[n]?.(),
    finishAll: () => [...waiting.values()].flat().forEach((resolve) => resolve()),
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('a worker on the queue', () => {
  let redis: TestRedis;
  let bundleSha: string;
  let db = 0;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-work-test-'));
    redis = await startRedis(path.join(root, 'redis'));
    bundleSha = (await packFolder(path.join(import.meta.dirname, '../../test/fixtures/suites/tiny'))).sha256;
  });
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
    await redis?.stop();
  });

  /** A fresh database with the tiny suite's bundle, a queue to add signed jobs to, and a worker running `runs`. */
  async function fleet(concurrency: number) {
    const n = db++;
    const client = redis.client(n);
    await client.set(keys.bundle(bundleSha), (await packFolder(path.join(import.meta.dirname, '../../test/fixtures/suites/tiny'))).bytes);
    const queue = new Queue<Sealed, Sealed>(QUEUE, { connection: { host: '127.0.0.1', port: redis.port, db: n }, prefix: PREFIX });
    const runs = controlledRuns();
    const events: WorkerEvent[] = [];
    const worker: RunningWorker = await startWorker({
      address: parseQueueUrl(redis.url(n)),
      name: `w${n}`,
      concurrency,
      leaseSec: 5,
      cacheDir: await mkdtemp(path.join(os.tmpdir(), 'bakeoff-work-cache-')),
      seal,
      policy: workerPolicy([]),
      execute: runs.execute,
      notes: { note: () => {}, error: () => {} },
      onEvent: (e) => events.push(e),
    });
    cleanup.push(async () => {
      runs.finishAll();
      await worker.close(true);
      await queue.close();
      client.disconnect();
    });
    const add = (runId: string) => {
      const job: RunJob = {
        schemaVersion: 2, bakeoffVersion: BAKEOFF_VERSION, suiteId: 'tiny', suiteHash: 'a'.repeat(64), bundleSha256: bundleSha, runId, task: 'add', replay: 0,
        agentSpec: 'gold', agentDigest: 'g', agentId: 'gold', agentOptions: { cwd: '/' }, enqueuedAt: Date.now(),
      };
      return queue.add('run', seal.seal('job', job), { jobId: runId, attempts: 1, removeOnComplete: false, removeOnFail: false });
    };
    const state = async (id: string) => (await queue.getJob(id))?.getState();
    return { queue, client, runs, events, worker, add, state };
  }

  it('on a graceful stop takes no new run and hands back, sealed, the runs that finish within the grace period', async () => {
    const f = await fleet(2);
    await f.add('r1');
    await until('r1 started', () => (f.runs.started.includes('r1') ? true : undefined));
    const stop = f.worker.stop(20_000);
    await f.add('r2');
    f.runs.finish('r1');
    expect(await stop).toEqual({ finished: 1, handedBack: [] });
    await f.worker.stopped;
    expect(f.runs.started).toEqual(['r1']);
    expect(await f.state('r2')).toBe('waiting');
    const done = (await f.queue.getJob('r1'))!;
    expect(await done.getState()).toBe('completed');
    const opened = seal.open<RunJobResult>('result', done.returnvalue);
    expect(opened).toMatchObject({ ok: true, value: { kind: 'run', attempt: 1, worker: 'w0' } });
  });

  it('after the grace period hands the running runs back to the queue at once, unrecorded: their attempts stay counted, and what they return later is never handed back', async () => {
    const f = await fleet(2);
    await f.add('r1');
    await until('r1 started', () => (f.runs.started.includes('r1') ? true : undefined));
    expect(await f.worker.stop(300)).toEqual({ finished: 0, handedBack: ['r1'] });
    // back in the queue for another worker now, not after a lease
    expect(await f.state('r1')).toBe('waiting');
    f.runs.finish('r1');
    await f.worker.stopped;
    expect(await f.state('r1')).toBe('waiting');
    expect((await f.queue.getJob('r1'))!.returnvalue).toBeNull();
    expect(f.events.filter((e) => e.type === 'job-end')).toEqual([]);
    const starts = openTexts<{ worker: string; token: string }>(seal, 'attempt', await f.client.lrange(keys.attempts('r1'), 0, -1));
    expect(starts.values.map((s) => s.worker)).toEqual(['w1']);
    expect(f.events).toContainEqual({ type: 'handed-back', runId: 'r1', attempt: 1 });
  });

  it('fences a stale attempt: after `queue clear` the run queued again waits for it to end, is a second attempt numbered after the first, and only its result is handed back', async () => {
    const f = await fleet(2);
    await f.add('r1');
    await until('r1 started', () => (f.runs.started.includes('r1') ? true : undefined));
    // what `bakeoff queue clear` does to a running job: the job and its lease go, the ledger of attempts stays
    await f.queue.obliterate({ force: true });
    await f.add('r1');
    // one attempt of a run at a time on a worker: the new one is put off while the stale one runs
    await until('r1 put off', async () => ((await f.state('r1')) === 'delayed' ? true : undefined));
    expect(f.runs.started).toEqual(['r1']);
    f.runs.finish('r1', 0);
    await until('the first attempt superseded', () => (f.events.some((e) => e.type === 'job-superseded') ? true : undefined));
    expect(f.events).toContainEqual({ type: 'job-superseded', runId: 'r1', attempt: 1 });
    await until('r1 started again', () => (f.runs.started.length === 2 ? true : undefined));
    expect(f.events.filter((e) => e.type === 'job-start').map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2]);
    f.runs.finish('r1', 1);
    await until('r1 completed', async () => ((await f.state('r1')) === 'completed' ? true : undefined));
    expect(seal.open('result', (await f.queue.getJob('r1'))!.returnvalue)).toMatchObject({ ok: true, value: { attempt: 2 } });
  });

  it('refuses a job whose seal does not open, failing it at once with the reason; nothing of it runs', async () => {
    const f = await fleet(1);
    await f.queue.add('run', { sealed: 1, kind: 'job', payload: '{"runId":"x"}', sig: '00' } as Sealed, { jobId: 'x', attempts: 1 });
    await until('x failed', async () => ((await f.state('x')) === 'failed' ? true : undefined));
    expect((await f.queue.getJob('x'))!.failedReason).toBe('refused by worker w3: job x: its signature does not match: changed after it was signed, or signed with another fleet secret');
    expect(f.runs.started).toEqual([]);
    expect(await f.client.exists(keys.attempts('x'))).toBe(0);
  });
});
