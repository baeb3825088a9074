import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys } from './jobs.js';
import type { Sealed } from './seal.js';

/**
 * A coordinator stopped between storing a run and removing its job (SIGKILL, a lost machine)
 * left the job finished in the queue, with its attempts and artifacts: the results folder holds
 * the run, so the next coordinator of the folder removes them (nothing else would: it never
 * looks at a run it has stored). One look at the finished jobs, whatever the bake's size.
 */
export async function dropStoredLeftovers(redis: Redis, queue: Queue<Sealed, Sealed>, stored: ReadonlySet<string>): Promise<void> {
  if (stored.size === 0) return;
  for (const job of await queue.getJobs(['completed', 'failed'])) {
    if (!job?.id || !stored.has(job.id)) continue;
    const starts = await redis.llen(keys.attempts(job.id));
    const numbers = Array.from({ length: starts }, (_, i) => i + 1);
    await redis.del(keys.attempts(job.id), ...numbers.flatMap((n) => [keys.artifacts(job.id!, n), keys.spent(job.id!, n)]));
    await job.remove().catch(() => {});
  }
}
