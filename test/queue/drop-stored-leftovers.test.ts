import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, until, type TestRedis } from '../e2e/fleet-helpers.js';
import { dropStoredLeftovers } from '../../src/queue/drop-stored-leftovers.js';
import { keys, PREFIX, QUEUE } from '../../src/queue/jobs.js';
import type { Sealed } from '../../src/queue/seal.js';

/*
 * A coordinator SIGKILLed between storing a run and removing its job leaves the job finished in
 * the queue; the next coordinator of the same results folder removes it and what the run left in
 * Redis, and nothing of a run the folder still lacks. Debian's redis-server, BullMQ's own worker.
 */

describe('finished jobs of runs a results folder already holds', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis(path.join(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-leftovers-')), 'redis'));
  });
  afterAll(() => redis?.stop());

  it('are removed with their attempts, artifacts and spend; a finished job of a run not stored is left for the coordinator to store', async () => {
    const client = redis.client(8);
    const connection = { host: '127.0.0.1', port: redis.port, db: 8 };
    const queue = new Queue<Sealed, Sealed>(QUEUE, { connection, prefix: PREFIX });
    const sealed = { payload: '{}', sig: 'x' } as unknown as Sealed;
    for (const id of ['stored', 'pending']) {
      await queue.add('run', sealed, { jobId: id, attempts: 1, removeOnComplete: false, removeOnFail: false });
      await client.rpush(keys.attempts(id), 'a1', 'a2');
      for (const n of [1, 2]) await client.set(keys.artifacts(id, n), 'tar').then(() => client.rpush(keys.spent(id, n), 'spent'));
    }
    const worker = new Worker<Sealed, Sealed>(QUEUE, async (job) => job.data, { connection, prefix: PREFIX });
    await until('both jobs completed', async () => ((await queue.getJobCounts('completed')).completed === 2 ? true : undefined), 30_000);
    await worker.close();

    await dropStoredLeftovers(client, queue, new Set(['stored', 'elsewhere']));
    expect(await queue.getJob('stored')).toBeUndefined();
    expect(await client.exists(keys.attempts('stored'), keys.artifacts('stored', 1), keys.artifacts('stored', 2), keys.spent('stored', 1), keys.spent('stored', 2))).toBe(0);
    expect(await (await queue.getJob('pending'))?.getState()).toBe('completed');
    expect(await client.exists(keys.attempts('pending'), keys.artifacts('pending', 1), keys.artifacts('pending', 2), keys.spent('pending', 1), keys.spent('pending', 2))).toBe(5);
    await queue.close();
    client.disconnect();
  });
});
