import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import { InfraError, UserError } from '../errors.js';
import { maskUrlPasswords } from '../util/index.js';

/** Where a fleet's queue lives: `redis[s]://HOST:PORT[/DB]`. */
export interface QueueAddress {
  /** As shown in every message: never with a password. */
  readonly url: string;
  readonly options: RedisOptions;
}

/** Reads `--queue`: `redis[s]://[user[:password]@]host[:port][/db]`; anything else is the user's to fix (exit 2). */
export function parseQueueUrl(url: string): QueueAddress {
  let parsed: URL;
  const shownInput = JSON.stringify(maskUrlPasswords(url));
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`--queue: expected redis://HOST:PORT[/DB], received ${shownInput}`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new UserError(`--queue: expected a redis:// or rediss:// address, received ${shownInput}`);
  }
  const port = parsed.port === '' ? 6379 : Number(parsed.port);
  const dbText = parsed.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0 || db > 15) throw new UserError(`--queue: expected a database number 0–15 after the port, received ${JSON.stringify(dbText)} in ${shownInput}`);
  if (!parsed.hostname) throw new UserError(`--queue: expected a host in ${shownInput}`);
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

/** Where a fleet command finds its queue: flags first, then the environment (so no password need be in argv). */
export interface QueuePlace {
  /** `--queue`; default `BAKEOFF_QUEUE_URL`. */
  readonly queue?: string;
  /** `--queue-ca`, `--queue-cert`, `--queue-key` (PEM files); defaults `BAKEOFF_QUEUE_CA`, `BAKEOFF_QUEUE_CERT`, `BAKEOFF_QUEUE_KEY`. */
  readonly queueCa?: string;
  readonly queueCert?: string;
  readonly queueKey?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * The queue's address from flags and environment: the URL (`--queue`, else `BAKEOFF_QUEUE_URL`),
 * its password when the URL has none from `BAKEOFF_QUEUE_PASSWORD`, and for `rediss://` the CA
 * that signed the server's certificate and a client certificate and key (PEM files).
 */
export async function queueAddressOf(place: QueuePlace): Promise<QueueAddress> {
  const url = place.queue ?? nonEmpty(place.env.BAKEOFF_QUEUE_URL);
  if (url === undefined) throw new UserError('--queue: expected the fleet\'s Redis as redis://HOST:PORT[/DB] (or in BAKEOFF_QUEUE_URL), received none');
  const address = parseQueueUrl(url);
  const password = nonEmpty(place.env.BAKEOFF_QUEUE_PASSWORD);
  const options: RedisOptions = { ...address.options, ...(address.options.password === undefined && password !== undefined ? { password } : {}) };
  const files = {
    ca: place.queueCa ?? nonEmpty(place.env.BAKEOFF_QUEUE_CA),
    cert: place.queueCert ?? nonEmpty(place.env.BAKEOFF_QUEUE_CERT),
    key: place.queueKey ?? nonEmpty(place.env.BAKEOFF_QUEUE_KEY),
  };
  if (files.ca === undefined && files.cert === undefined && files.key === undefined) return { url: address.url, options };
  if (!address.url.startsWith('rediss:')) {
    throw new UserError(`--queue-ca/--queue-cert/--queue-key: TLS files are for a rediss:// queue, received ${address.url} (write rediss:// for TLS)`);
  }
  if ((files.cert === undefined) !== (files.key === undefined)) {
    throw new UserError(`--queue-cert and --queue-key: expected both (a client certificate and its key), received only ${files.cert !== undefined ? '--queue-cert' : '--queue-key'}`);
  }
  const read = async (flag: string, file: string | undefined): Promise<Buffer | undefined> => {
    if (file === undefined) return undefined;
    const absolute = path.resolve(place.cwd, file);
    try {
      return await readFile(absolute);
    } catch (error) {
      throw new UserError(`${flag} ${absolute}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); expected a PEM file`);
    }
  };
  const [ca, cert, key] = [await read('--queue-ca', files.ca), await read('--queue-cert', files.cert), await read('--queue-key', files.key)];
  return { url: address.url, options: { ...options, tls: { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) } } };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** How a connection tells its owner that Redis went away and came back. */
export interface LinkNotes {
  note(message: string): void;
}

/**
 * The state of one process's link to one queue, over all its connections (BullMQ's included):
 * one line when the first of them loses Redis, one when every one of them is ready again (and
 * stayed so for {@link SETTLE_MS}: a Redis that is shutting down may accept a connection before
 * it closes its port). Never a stack trace.
 */
interface LinkWatch {
  notes: LinkNotes | null;
  readonly down: Set<Redis>;
  lost: boolean;
  settle?: NodeJS.Timeout;
}

const SETTLE_MS = 500;
const watches = new Map<string, LinkWatch>();

function watchOf(address: QueueAddress, notes: LinkNotes | null): LinkWatch {
  let watch = watches.get(address.url);
  if (!watch) {
    watch = { notes: null, down: new Set(), lost: false };
    watches.set(address.url, watch);
  }
  watch.notes ??= notes;
  return watch;
}

/** Follows a connection in its process's {@link LinkWatch}. */
function follow(redis: Redis, address: QueueAddress, watch: LinkWatch): void {
  const dropped = (why: string): void => {
    watch.down.add(redis);
    clearTimeout(watch.settle);
    if (watch.lost) return;
    watch.lost = true;
    watch.notes?.note(`lost the queue's Redis at ${address.url} (${maskUrlPasswords(why)}); waiting for it to come back — nothing recorded is lost`);
  };
  redis.on('error', (error: Error) => dropped(error.message));
  // ioredis reconnects only a connection it lost (never one closed on purpose): not ready until it is back
  redis.on('reconnecting', () => {
    watch.down.add(redis);
    clearTimeout(watch.settle);
  });
  redis.on('end', () => {
    // closed on purpose: no longer part of the link
    watch.down.delete(redis);
  });
  redis.on('ready', () => {
    watch.down.delete(redis);
    if (!watch.lost || watch.down.size > 0) return;
    clearTimeout(watch.settle);
    watch.settle = setTimeout(() => {
      if (!watch.lost || watch.down.size > 0) return;
      watch.lost = false;
      watch.notes?.note(`the queue's Redis at ${address.url} is back`);
    }, SETTLE_MS);
    watch.settle.unref();
  });
}

/**
 * A connection to the fleet's Redis, checked before anything is sent: an unreachable Redis at
 * start is exit 3 (it is the machine's, not the input's). Later losses are said once per
 * process on stderr (`notes`; the first connection that gives notes speaks for all) and waited
 * out (ioredis reconnects; BullMQ's jobs and locks are in Redis, not here).
 */
export async function connectQueue(address: QueueAddress, notes: LinkNotes | null = null, timeoutMs = 5000): Promise<Redis> {
  const redis = new Redis({ ...address.options, connectTimeout: timeoutMs });
  let firstError: string | undefined;
  const early = (error: Error): void => {
    // the first connection's failure is thrown below, with what the socket said
    firstError ??= error.message;
  };
  redis.on('error', early);
  try {
    await withTimeout(redis.connect(), timeoutMs, `no answer within ${timeoutMs / 1000} s`);
    await withTimeout(redis.ping(), timeoutMs, `no answer to PING within ${timeoutMs / 1000} s`);
  } catch (error) {
    redis.disconnect();
    const why = maskUrlPasswords(firstError ?? (error as Error).message).replace(/\.$/, '');
    const fix = /certificate|ssl|tls|alert|handshake/i.test(why)
      ? 'For TLS give --queue-ca (the CA that signed Redis\'s certificate) and, when Redis asks for a client certificate, --queue-cert and --queue-key'
      : /NOAUTH|WRONGPASS|AUTH|password/i.test(why)
        ? 'Give its password in BAKEOFF_QUEUE_PASSWORD (or the --queue URL)'
        : 'Start it (redis-server) or fix --queue';
    throw new InfraError(`cannot reach the queue's Redis at ${address.url}: ${why}. ${fix}`);
  }
  redis.off('error', early);
  follow(redis, address, watchOf(address, notes));
  return redis;
}

/**
 * Makes a connection BullMQ duplicated from one of ours (its blocking or events connection) part
 * of the process's link: its losses are said once with the others', never as ioredis's
 * "Unhandled error event" stack trace.
 */
export function followDuplicate(redis: Redis, address: QueueAddress): void {
  follow(redis, address, watchOf(address, null));
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
