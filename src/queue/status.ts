import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectQueue, type LinkNotes, type QueueAddress } from './connection.js';
import { keys, PREFIX, QUEUE, type FleetBake, type WorkerInfo } from './jobs.js';

export interface QueueStatus {
  readonly url: string;
  /** The bake the queue carries (its coordinator null when none is running), or null. */
  readonly bake: FleetBake | null;
  readonly jobs: { readonly waiting: number; readonly active: number; readonly delayed: number; readonly completed: number; readonly failed: number };
  /** Workers announced in the last 30 s. */
  readonly workers: readonly WorkerInfo[];
}

/** `bakeoff queue status`: what the fleet's queue holds and who works on it. */
export async function queueStatus(address: QueueAddress, notes: LinkNotes): Promise<QueueStatus> {
  return withQueue(address, notes, async (redis, queue) => {
    const held = await redis.get(keys.bake);
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed');
    const workers: WorkerInfo[] = [];
    for (const key of await scanKeys(redis, keys.worker('*'))) {
      const text = await redis.get(key);
      if (text) workers.push(JSON.parse(text) as WorkerInfo);
    }
    workers.sort((a, b) => a.name.localeCompare(b.name));
    return {
      url: address.url,
      bake: held ? (JSON.parse(held) as FleetBake) : null,
      jobs: {
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        completed: counts.completed ?? 0,
        failed: counts.failed ?? 0,
      },
      workers,
    };
  });
}

/**
 * `bakeoff queue drain`: takes the runs no worker has started out of the queue (running ones
 * finish). `bakeoff queue clear`: empties the queue and everything bakeoff keeps in it (bundles,
 * attempts, unclaimed artifacts). Nothing recorded in a results folder is touched; re-running
 * the bake enqueues what its folder still lacks.
 */
export async function emptyQueue(address: QueueAddress, notes: LinkNotes, how: 'drain' | 'clear'): Promise<{ readonly removed: number }> {
  return withQueue(address, notes, async (redis, queue) => {
    if (how === 'drain') {
      const before = await queue.count();
      await queue.drain(true);
      return { removed: before - (await queue.count()) };
    }
    // every job, in any state: running ones, and finished ones no coordinator has stored yet
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed', 'waiting-children');
    const before = Object.values(counts).reduce((a, b) => a + b, 0);
    await queue.obliterate({ force: true });
    const ours = await scanKeys(redis, `${PREFIX}:fleet:*`);
    if (ours.length > 0) await redis.del(...ours);
    return { removed: before };
  });
}

async function withQueue<T>(address: QueueAddress, notes: LinkNotes, work: (redis: Redis, queue: Queue) => Promise<T>): Promise<T> {
  const redis = await connectQueue(address, notes);
  const queue = new Queue(QUEUE, { connection: redis, prefix: PREFIX });
  try {
    return await work(redis, queue);
  } finally {
    await queue.close().catch(() => {});
    redis.disconnect();
  }
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    found.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return found;
}
