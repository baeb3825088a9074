import type { Redis } from 'ioredis';
import { connectQueue, type LinkNotes, type QueueAddress } from './connection.js';
import { PREFIX } from './jobs.js';

/**
 * Fleet-wide session slots (`run --queue --upstream-concurrency N`): at most N model sessions at
 * once per model API, over every worker, so twenty workers do not turn one API's rate limit into
 * a wall of `upstream-rate-limited` voids. A slot is a member of a sorted set scored by when it
 * lapses (Redis's clock, so workers' clocks do not matter); its holder renews it while the
 * session runs, and a holder that died frees it within one lease.
 */
export interface SessionSlots {
  /** Waits for a slot of `key` (at most `limit` held at once); resolves with its release. */
  acquire(key: string, limit: number, holder: string): Promise<() => Promise<void>>;
  close(): void;
}

const LEASE_MS = 15_000;
const POLL_MS = 250;

// KEYS[1] the slots of one API; ARGV: lease ms, limit, holder. Returns 1 when the holder has a slot.
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 4)
  return 1
end
return 0
`;

export const slotsKey = (key: string): string => `${PREFIX}:fleet:slots:${key}`;

export async function openSessionSlots(address: QueueAddress, notes: LinkNotes): Promise<SessionSlots> {
  const redis: Redis = await connectQueue(address, notes);
  const take = (key: string, limit: number, holder: string) => redis.eval(TAKE, 1, slotsKey(key), LEASE_MS, limit, holder) as Promise<number>;
  return {
    acquire: async (key, limit, holder) => {
      while ((await take(key, limit, holder)) !== 1) await new Promise((r) => setTimeout(r, POLL_MS));
      const renew = setInterval(() => void take(key, limit, holder).catch(() => {}), LEASE_MS / 3);
      return async () => {
        clearInterval(renew);
        await redis.zrem(slotsKey(key), holder).catch(() => {});
      };
    },
    close: () => redis.disconnect(),
  };
}
