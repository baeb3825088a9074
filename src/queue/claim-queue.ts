import { hostname } from 'node:os';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { UserError } from '../errors.js';
import type { Suite } from '../suite/index.js';
import { pidExists } from '../util/index.js';
import { BAKEOFF_VERSION } from '../version.js';
import { keys, type FleetBake } from './jobs.js';
import { packFolder } from './tarball.js';

/** Seconds a coordinator's claim on the queue lives without its heartbeat (a killed one's lapses). */
export const BAKE_TTL_SEC = 15;

/**
 * Takes the queue for this bake. One coordinator per queue at a time: another live coordinator
 * is refused, and so is a different suite while runs of the other suite are still outstanding
 * (use another Redis database, or `bakeoff queue clear`).
 */
export async function claimQueue(redis: Redis, queue: Queue, suite: Suite, me: string, url: string): Promise<void> {
  const held = await redis.get(keys.bake);
  const other = held ? (JSON.parse(held) as FleetBake) : null;
  if (other?.coordinator && other.coordinator !== me && !coordinatorGone(other.coordinator)) {
    throw new UserError(
      `queue ${url} is being run by another coordinator (${other.coordinator}, suite ${other.suiteId}, since ${other.startedAt}): ` +
        `one coordinator per queue — wait for it, or give this bake another Redis database (redis://HOST:PORT/1)`,
    );
  }
  if (other && other.suiteHash !== suite.hash) {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'waiting-children');
    const outstanding = Object.values(counts).reduce((a, b) => a + b, 0);
    if (outstanding > 0) {
      throw new UserError(
        `queue ${url} still holds ${outstanding} run(s) of suite ${other.suiteId} (hash ${other.suiteHash.slice(0, 12)}…), not ${suite.id} (hash ${suite.hash.slice(0, 12)}…): ` +
          `re-run that bake to finish them, or \`bakeoff queue clear --queue ${url}\`, or use another Redis database`,
      );
    }
  }
  const bake: FleetBake = { suiteId: suite.id, suiteHash: suite.hash, bakeoffVersion: BAKEOFF_VERSION, coordinator: me, startedAt: new Date().toISOString() };
  await redis.set(keys.bake, JSON.stringify(bake), 'EX', BAKE_TTL_SEC);
}

/** A coordinator on this host whose process is gone (killed): its claim can be taken over at once. */
function coordinatorGone(coordinator: string): boolean {
  const [host, pid] = coordinator.split(':');
  return host === hostname() && !pidExists(Number(pid));
}

export async function releaseQueue(redis: Redis, me: string): Promise<void> {
  const held = await redis.get(keys.bake);
  if (held && (JSON.parse(held) as FleetBake).coordinator === me) {
    // the bake's identity stays for workers checking their version; only the claim's liveness goes
    await redis.set(keys.bake, JSON.stringify({ ...(JSON.parse(held) as FleetBake), coordinator: null }), 'EX', 24 * 3600);
  }
}

/** The suite (with its lock) as a tarball under its hash, once. */
export async function publishBundle(redis: Redis, suite: Suite): Promise<void> {
  if ((await redis.exists(keys.bundle(suite.hash))) === 1) return;
  const { bytes } = await packFolder(suite.dir);
  await redis.set(keys.bundle(suite.hash), bytes);
}
