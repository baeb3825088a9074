import { Redis, type RedisOptions } from 'ioredis';
import { InfraError, UserError } from '../errors.js';

/** Where a fleet's queue lives: `redis://HOST:PORT[/DB]`. */
export interface QueueAddress {
  /** As given, without a password. */
  readonly url: string;
  readonly options: RedisOptions;
}

/** Reads `--queue`: `redis://[user:password@]host[:port][/db]`; anything else is the user's to fix (exit 2). */
export function parseQueueUrl(url: string): QueueAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`--queue: expected redis://HOST:PORT[/DB], received ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new UserError(`--queue: expected a redis:// or rediss:// address, received ${JSON.stringify(url)}`);
  }
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  const dbText = parsed.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || db > 15) throw new UserError(`--queue: expected a database number 0–15 after the port, received ${JSON.stringify(dbText)} in ${JSON.stringify(url)}`);
  if (!parsed.hostname) throw new UserError(`--queue: expected a host in ${JSON.stringify(url)}`);
  const shown = `${parsed.protocol}//${parsed.hostname}:${port}/${db}`;
  return {
    url: shown,
    options: {
      host: parsed.hostname.replace(/^\[|\]$/g, ''),
      port,
      db,
      ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
      ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
      ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
      // BullMQ's blocking commands need this; ioredis then retries a command until Redis is back
      maxRetriesPerRequest: null,
      // reconnect for ever, at most every 2 s: a restarted Redis is picked up where it left off
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
      lazyConnect: true,
    },
  };
}

/** How a connection tells its owner that Redis went away and came back (said once each). */
export interface LinkNotes {
  note(message: string): void;
}

/**
 * A connection to the fleet's Redis, checked before anything is sent: an unreachable Redis at
 * start is exit 3 (it is the machine's, not the input's). Later losses are said once on stderr
 * and waited out (ioredis reconnects; BullMQ's jobs and locks are in Redis, not here).
 */
export async function connectQueue(address: QueueAddress, notes: LinkNotes, timeoutMs = 5000): Promise<Redis> {
  const redis = new Redis({ ...address.options, connectTimeout: timeoutMs });
  let lost = false;
  let started = false;
  let firstError: string | undefined;
  redis.on('error', (error: Error) => {
    if (!started) {
      // the first connection's failure is thrown below, with what the socket said
      firstError ??= error.message;
      return;
    }
    if (lost) return;
    lost = true;
    notes.note(`lost the queue's Redis at ${address.url} (${error.message}); waiting for it to come back — nothing recorded is lost`);
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    notes.note(`the queue's Redis at ${address.url} is back`);
  });
  try {
    await withTimeout(redis.connect(), timeoutMs, `no answer within ${timeoutMs / 1000} s`);
    await withTimeout(redis.ping(), timeoutMs, `no answer to PING within ${timeoutMs / 1000} s`);
  } catch (error) {
    redis.disconnect();
    const why = (firstError ?? (error as Error).message).replace(/\.$/, '');
    throw new InfraError(`cannot reach the queue's Redis at ${address.url}: ${why}. Start it (redis-server) or fix --queue`);
  }
  started = true;
  return redis;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
