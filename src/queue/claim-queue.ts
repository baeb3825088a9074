import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { InfraError, UserError } from '../errors.js';
import type { Suite } from '../suite/index.js';
import { pidExists } from '../util/index.js';
import { BAKEOFF_VERSION } from '../version.js';
import { BUNDLE_AFTER_SEC, BUNDLE_TTL_SEC, keys, type FleetBake } from './jobs.js';

/** Seconds a coordinator's claim on the queue lives without its heartbeat (a killed one's lapses). */
export const BAKE_TTL_SEC = 15;

/**
 * Sets the claim when the key still holds what the caller read (ARGV[1], '' for nothing): two
 * coordinators starting at once cannot both take the queue. Returns 1 when set.
 */
const TAKE = `
local held = redis.call('GET', KEYS[1]) or ''
if held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
return 1
`;

/**
 * A coordinator's heartbeat: renews its claim, or re-creates it when it is gone (a Redis restart
 * after an outage longer than the claim's life, `queue clear`), unless another live coordinator's
 * claim is there now. Returns that claim's JSON then; nil when the claim is ours.
 */
const RENEW = `
local held = redis.call('GET', KEYS[1])
if held then
  local ok, bake = pcall(cjson.decode, held)
  if ok and type(bake) == 'table' and bake.coordinator ~= nil and bake.coordinator ~= cjson.null and bake.claim ~= ARGV[1] then
    return held
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
return false
`;

/** The queue, held by one coordinator: renew it on a heartbeat, release it at the end. */
export interface QueueClaim {
  readonly bake: FleetBake;
  /** Renews (or re-creates) the claim and the bundles' lives; resolves with the other coordinator's claim when one took the queue. */
  renew(bundleKeys?: readonly string[]): Promise<FleetBake | null>;
  release(): Promise<void>;
}

/**
 * Takes the queue for this bake. One coordinator per queue at a time: another live coordinator
 * is refused, and so is a different suite while runs of the other suite are still outstanding
 * (use another Redis database, or `bakeoff queue clear`).
 */
export async function claimQueue(redis: Redis, queue: Queue, suite: Suite, me: string, url: string): Promise<QueueClaim> {
  const held = (await redis.get(keys.bake)) ?? '';
  const other = held ? parseBake(held) : null;
  if (other?.coordinator && other.coordinator !== me && !coordinatorGone(other.coordinator)) throw anotherCoordinator(url, other);
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
  const claim = randomBytes(16).toString('hex');
  const bake: FleetBake = { suiteId: suite.id, suiteHash: suite.hash, bakeoffVersion: BAKEOFF_VERSION, coordinator: me, claim, startedAt: new Date().toISOString() };
  const text = JSON.stringify(bake);
  if ((await redis.eval(TAKE, 1, keys.bake, held, text, BAKE_TTL_SEC)) !== 1) {
    // another coordinator took it between the read and the write
    const now = await redis.get(keys.bake);
    throw anotherCoordinator(url, now ? (parseBake(now) ?? bake) : bake);
  }
  return {
    bake,
    renew: async (bundleKeys: readonly string[] = []) => {
      const taken = (await redis.eval(RENEW, 1, keys.bake, claim, text, BAKE_TTL_SEC)) as string | null;
      // the bundles live while their bake does
      for (const key of bundleKeys) await redis.expire(key, BUNDLE_TTL_SEC);
      return taken ? parseBake(taken) : null;
    },
    release: async () => {
      const now = await redis.get(keys.bake);
      if (now && parseBake(now)?.claim === claim) {
        // the bake's identity stays for workers checking their version; only the claim's liveness goes
        await redis.set(keys.bake, JSON.stringify({ ...bake, coordinator: null, claim: undefined }), 'EX', 24 * 3600);
      }
    },
  };
}

/**
 * Renews the claim every {@link HEARTBEAT_MS} and as soon as Redis is back (one renewal at a
 * time: those queued during an outage are skipped); `onTaken` is called when another coordinator
 * holds the queue. Returns how to stop.
 */
export function keepClaim(redis: Redis, claim: QueueClaim, bundleKeys: readonly string[], onTaken: (other: FleetBake) => void): () => void {
  let renewing = false;
  const renew = (): void => {
    if (renewing) return;
    renewing = true;
    void claim
      .renew(bundleKeys)
      .then((other) => other && onTaken(other))
      .catch(() => {})
      .finally(() => (renewing = false));
  };
  const heartbeat = setInterval(renew, HEARTBEAT_MS);
  redis.on('ready', renew);
  return () => {
    clearInterval(heartbeat);
    redis.off('ready', renew);
  };
}

const HEARTBEAT_MS = 5000;

/** The sentence a coordinator stops itself with when another holds its queue (exit 3). */
export function takenOver(url: string, other: FleetBake): InfraError {
  return new InfraError(
    `another coordinator (${other.coordinator}, suite ${other.suiteId}, since ${other.startedAt}) took queue ${url} while this one could not renew its claim (Redis was away longer than the claim lives): ` +
      `stopping this one, so that one coordinator runs the queue — what it stored is kept; the other carries on, and the same command again resumes once it is done`,
  );
}

function anotherCoordinator(url: string, other: FleetBake): UserError {
  return new UserError(
    `queue ${url} is being run by another coordinator (${other.coordinator}, suite ${other.suiteId}, since ${other.startedAt}): ` +
      `one coordinator per queue — wait for it, or give this bake another Redis database (redis://HOST:PORT/1)`,
  );
}

function parseBake(text: string): FleetBake | null {
  try {
    return JSON.parse(text) as FleetBake;
  } catch {
    return null;
  }
}

/** A coordinator on this host whose process is gone (killed): its claim can be taken over at once. */
function coordinatorGone(coordinator: string): boolean {
  const [host, pid] = coordinator.split(':');
  return host === hostname() && !pidExists(Number(pid));
}

/**
 * A bundle (the suite with its lock, or the agent specs' files) under the sha256 of its bytes,
 * living while the bake does: written over whatever is there, so bytes someone else put under
 * that name never stay. Jobs sign the sha256; a worker uses no other bytes.
 */
export async function publishBundle(redis: Redis, key: string, bytes: Buffer): Promise<void> {
  await redis.set(key, bytes, 'EX', BUNDLE_TTL_SEC);
}

/** Once every run of the bake is stored, its bundles go within {@link BUNDLE_AFTER_SEC}. */
export async function expireBundles(redis: Redis, bundleKeys: readonly string[]): Promise<void> {
  for (const key of bundleKeys) await redis.expire(key, BUNDLE_AFTER_SEC);
}
