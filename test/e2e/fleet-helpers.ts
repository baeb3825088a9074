import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type ResultPromise } from 'execa';
import { Redis } from 'ioredis';
import { bakeoff, BIN, copySuite, FIXTURES, ROOT } from './helpers.js';

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
 * A private, validated copy of the tiny suite with its `add` task alone (node:test, no Python):
 * what the fleet tests need of a suite, admitted in a fraction of the time both tasks take on a
 * busy machine. `sessionWallClockSec` (default the suite's 60): a test that holds a session with
 * SIGSTOP while it looks at the queue gives it longer, so a saturated machine's slow steps never
 * let the wall clock end the held session first.
 */
export async function validatedAdd(options: { readonly sessionWallClockSec?: number } = {}): Promise<string> {
  return validatedCopy(path.join(FIXTURES, 'suites/tiny'), async (copy) => {
    await rm(path.join(copy, 'tasks/py-add'), { recursive: true });
    if (options.sessionWallClockSec !== undefined) {
      const file = path.join(copy, 'suite.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('sessionWallClockSec: 60', `sessionWallClockSec: ${options.sessionWallClockSec}`));
    }
  });
}

/** A private, validated copy of a fixture suite; `edit` changes the copy before it is validated. */
export async function validatedCopy(dir: string, edit: (copy: string) => Promise<void> = async () => {}): Promise<string> {
  const copy = await copySuite(dir);
  await edit(copy);
  const validate = await bakeoff(['validate', copy]);
  if (validate.exitCode !== 0) throw new Error(`bakeoff validate ${copy} exited ${validate.exitCode}:\n${validate.stderr}`);
  return copy;
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
