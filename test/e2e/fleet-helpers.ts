import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { execa, type ResultPromise } from 'execa';
import { Redis } from 'ioredis';
import { parseQueueUrl, queueStatus, type QueueStatus } from '../../src/queue/index.js';
import { BIN, ROOT } from './helpers.js';
import { validatedOneTask } from './tiny-suite.js';

/**
 * The fleet secret of the tests' fleets (every job and result is signed with it): set in this
 * test process's environment, so every coordinator, worker and queue command it starts has it.
 */
export const FLEET_SECRET = 'test-fleet-secret-0123456789abcdef0123456789abcdef';
process.env.BAKEOFF_FLEET_SECRET = FLEET_SECRET;

/** A free loopback port (bound and released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Debian's redis-server on a loopback port of its own, append-only persistence on (so a
 * restart keeps the queue, as a real deployment's would). `restart()` stops it with SIGTERM (it
 * writes its append-only file) and starts it again on the same port and folder.
 */
export interface TestRedis {
  readonly port: number;
  readonly url: (db?: number) => string;
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
  client(db?: number): Redis;
}

export async function startRedis(dir: string): Promise<TestRedis> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  let server: ResultPromise | undefined;
  const start = async (): Promise<void> => {
    server = execa('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--protected-mode', 'no'], {
      reject: false,
    });
    const deadline = performance.now() + 10_000;
    for (;;) {
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      const ok = await probe
        .connect()
        .then(() => probe.ping())
        .then(() => true, () => false);
      probe.disconnect();
      if (ok) return;
      if (performance.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await sleep(100);
    }
  };
  const stop = async (): Promise<void> => {
    server?.kill('SIGTERM');
    await server;
    server = undefined;
  };
  await start();
  return {
    port,
    url: (db = 0) => `redis://127.0.0.1:${port}/${db}`,
    restart: async (downMs = 1000) => {
      await stop();
      await sleep(downMs);
      await start();
    },
    stop,
    client: (db = 0) => {
      const client = new Redis({ port, host: '127.0.0.1', db });
      client.on('error', () => {}); // a test's own client while Redis is away: not the test's failure
      return client;
    },
  };
}

/** A `bakeoff` process left running (a worker, a coordinator), its stderr collected as it comes. */
export interface Proc {
  readonly child: ResultPromise;
  stderr(): string;
  stdout(): string;
  waitFor(pattern: RegExp, ms: number): Promise<RegExpMatchArray>;
}

/** `via`: a command the node process is started through (`unshare … sh -c '…; exec "$@"'`), its last arguments node and bakeoff's. */
export function spawnBakeoff(args: readonly string[], env: Record<string, string> = {}, via: readonly string[] = []): Proc {
  const [command = process.execPath, ...before] = [...via, process.execPath, BIN];
  const child = execa(command, [...before, ...args], { cwd: ROOT, env: { NO_COLOR: '1', ...env }, reject: false, buffer: true });
  let err = '';
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    child,
    stderr: () => err,
    stdout: () => out,
    waitFor: async (pattern, ms) => {
      const deadline = performance.now() + ms;
      for (;;) {
        const m = err.match(pattern);
        if (m) return m;
        if (child.exitCode !== null || performance.now() > deadline) {
          throw new Error(`waited for ${pattern} in the stderr of bakeoff ${args.join(' ')}, exit ${child.exitCode}:\n${err.slice(-3000)}`);
        }
        await sleep(50);
      }
    },
  };
}

/** Kills what a test file left running (workers, a model server) and stops its Redis: its afterAll. */
export async function stopFleet(procs: readonly Proc[], redis: TestRedis | undefined): Promise<void> {
  for (const p of procs) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.child));
  await redis?.stop();
}

/**
 * A private copy of the tiny suite with its `add` task alone (node:test, no Python): what the
 * fleet tests need of a suite, admitted in a fraction of the time both tasks take on a busy
 * machine. Validated once per test run and wall clock for every file that asks
 * (test/e2e/shared-suite.ts), not once per case. Its sessions get 900 s (the suite's own is
 * 60): cases that hold a session with SIGSTOP while they look at the queue must never see a
 * saturated machine's slow steps let the wall clock end it first, and one wall clock for every
 * fleet file means one validation for the whole tier.
 */
export async function validatedAdd(): Promise<string> {
  return validatedOneTask(900);
}

/** One attempt at a run, as the coordinator stored it (its spend: NULL without a meter). */
export interface AttemptRow {
  run_id: string;
  attempt: number;
  worker: string;
  state: string;
  cost_usd: number | null;
  tokens_in: number | null;
  tokens_out: number | null;
  requests: number | null;
}

/** Every attempt stored in a results folder, by run and number. */
export function attemptsOf(results: string): AttemptRow[] {
  const db = new Database(path.join(results, 'bakeoff.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT run_id, attempt, worker, state, cost_usd, tokens_in, tokens_out, requests FROM attempts ORDER BY run_id, attempt').all() as AttemptRow[];
  } finally {
    db.close();
  }
}

/**
 * What the queue holds, as `bakeoff queue status --json` says it (the same library function,
 * in this process): a poll that waits for a queue state costs no CLI start per look.
 */
export async function jobsOf(url: string): Promise<QueueStatus['jobs']> {
  return (await queueStatus(parseQueueUrl(url), { note: () => {} })).jobs;
}

/** Lines of a process's stderr that match. */
export const linesOf = (text: string, pattern: RegExp): string[] => text.split('\n').filter((l) => pattern.test(l));

/** Every file under `dir`, recursively, with its bytes. */
export async function filesUnder(dir: string): Promise<{ file: string; bytes: Buffer }[]> {
  const out: { file: string; bytes: Buffer }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push({ file, bytes: await readFile(file) });
  }
  return out;
}

/** Polls `probe` every 100 ms until it gives a value (a state, a process, a log line), or fails after `ms` naming `what`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms: number): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`waited ${ms / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
