import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { connectQueue, type LinkNotes, type QueueAddress } from './connection.js';
import { ARTIFACTS_TTL_SEC, keys, PREFIX, QUEUE, type FleetBake, type WorkerInfo } from './jobs.js';

export interface QueueStatus {
  readonly url: string;
  /** The bake the queue carries (its coordinator null when none is running), or null. */
  readonly bake: FleetBake | null;
  readonly jobs: {
    readonly waiting: number;
    /** Runs a live worker is running now (it says so in its announcement). */
    readonly active: number;
    /**
     * Runs BullMQ still counts as running whose worker has not been heard from: lost (killed, cut
     * off), back in the queue once their lease lapses.
     */
    readonly lost: number;
    readonly delayed: number;
    readonly completed: number;
    readonly failed: number;
  };
  /** Workers announced in the last 30 s. */
  readonly workers: readonly WorkerInfo[];
}

/** `bakeoff queue status`: what the fleet's queue holds and who works on it. */
export async function queueStatus(address: QueueAddress, notes: LinkNotes): Promise<QueueStatus> {
  return withQueue(address, notes, async (redis, queue) => {
    const held = await redis.get(keys.bake);
    const counts = await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'completed', 'failed');
    const workers: WorkerInfo[] = [];
    for (const key of await scanKeys(redis, keys.worker('*'))) {
      const text = await redis.get(key);
      if (text) workers.push(JSON.parse(text) as WorkerInfo);
    }
    workers.sort((a, b) => a.name.localeCompare(b.name));
    // running = held by a worker that announced it; the rest of BullMQ's active list lost its worker
    const claimed = new Set(workers.flatMap((w) => w.active));
    const active = (await queue.getActive()).map((job) => job.id).filter((id): id is string => id !== undefined);
    const running = active.filter((id) => claimed.has(id)).length;
    return {
      url: address.url,
      bake: held ? (JSON.parse(held) as FleetBake) : null,
      jobs: {
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: running,
        lost: active.length - running,
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
 * finish). `bakeoff queue clear`: empties the queue and what bakeoff keeps in it (the bake's
 * claim, bundles, unclaimed artifacts) but the ledger of attempts already started and what
 * they spent (kept {@link ARTIFACTS_TTL_SEC}: a run redone counts them as abandoned, numbered
 * on from them) and the live workers' announcements. Nothing recorded in a results folder is
 * touched; re-running the bake enqueues what its folder still lacks.
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
    const ledger = (key: string): boolean => key.startsWith(`${PREFIX}:fleet:attempts:`) || key.startsWith(`${PREFIX}:fleet:spent:`);
    const ours = (await scanKeys(redis, `${PREFIX}:fleet:*`)).filter((key) => !key.startsWith(`${PREFIX}:fleet:worker:`));
    const gone = ours.filter((key) => !ledger(key));
    if (gone.length > 0) await redis.del(...gone);
    for (const key of ours.filter(ledger)) await redis.expire(key, ARTIFACTS_TTL_SEC);
    return { removed: before };
  });
}

async function withQueue<T>(address: QueueAddress, notes: LinkNotes, work: (redis: Redis, queue: Queue) => Promise<T>): Promise<T> {
  const redis = await connectQueue(address, notes);
  const queue = new Queue(QUEUE, { connection: redis, prefix: PREFIX });
  queue.on('error', () => {}); // a lost connection is said once by the connection itself
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
