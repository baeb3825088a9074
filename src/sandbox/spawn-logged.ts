import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { InfraError, StoppingError } from '../errors.js';
import { holdProcess, isStopping, LIFELINE_FD } from '../util/index.js';
import type { ExecRequest, ExecResult } from './types.js';

const TAIL_BYTES = 64 * 1024;
/** Output kept when the caller does not say: 64 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** What a logged spawn reports: an {@link ExecResult} without the sandbox's resource limits, every flag set. */
export type SpawnLoggedResult = Required<Omit<ExecResult, 'limitHit' | 'cpu'>>;

/**
 * Spawns `argv` in a new process group with stdout and stderr interleaved, in order, on one
 * pipe that bakeoff reads; at `timeoutMs` the whole group is SIGKILLed. The log at `outputPath`
 * holds at most `maxOutputBytes`: the first eighth as it came, then (when more was printed) a
 * line saying how many bytes were cut, then the last seven eighths. The program's own writes
 * never block on the limit and never see an error from it. Never throws for the program's
 * own failure, only when it cannot be started. The program's descriptor 3 is a socket bakeoff
 * holds the other end of until it dies: util's `lifeline` watches it inside a sandbox.
 */
export async function spawnLogged(options: {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly outputPath: string;
  readonly timeoutMs: number;
  readonly cwd?: string;
  readonly maxOutputBytes?: number;
  /** Kill the group when it prints nothing for this long (a setup that hangs). */
  readonly idleTimeoutMs?: number;
  /** Called with each chunk of output as it arrives (progress). */
  readonly onOutput?: (chunk: Buffer) => void;
  /** Kill the group when this aborts (the caller knows the outcome already). */
  readonly signal?: AbortSignal;
  /** Called when a clock (the wall clock or the idle clock) is about to kill the group, given which; the kill waits for it (at most 2 s). */
  readonly beforeClockKill?: (why: string) => Promise<void>;
  /** Awaited (at most 2 s) between the wall clock running out and the kill: the last look at the processes (decision 011). */
  readonly beforeTimeoutKill?: () => Promise<unknown>;
}): Promise<SpawnLoggedResult> {
  if (isStopping()) throw new StoppingError(`not starting ${options.argv[0]}: bakeoff is stopping`);
  // `exec 2>&1` in a shell first: one pipe for both streams keeps their order
  const argv = ['/bin/sh', '-c', 'exec 2>&1; exec "$@"', 'bakeoff-logged', ...options.argv];
  const log = await createCappedLog(options.outputPath, options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
  const started = performance.now();
  let timedOut = false;
  let idleTimedOut = false;
  let aborted = false;
  try {
    // descriptor 3 (LIFELINE_FD) is the lifeline: bakeoff never writes to it, and reading it sees its end once the program and all it started are gone
    const child = spawn(argv[0]!, argv.slice(1), { env: options.env, stdio: ['ignore', 'pipe', 'ignore', 'pipe'], detached: true, cwd: options.cwd ?? '/' });
    (child.stdio[LIFELINE_FD] as Readable).resume();
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    // a stop (SIGINT) kills the group too; nothing of it then outlives bakeoff
    const release = holdProcess(killGroup);
    const killByClock = (why: string, atWallClock = false): void => {
      const said = Promise.all([options.beforeClockKill?.(why), atWallClock ? options.beforeTimeoutKill?.() : undefined]).catch(() => {});
      void Promise.race([said, new Promise((resolve) => setTimeout(resolve, 2000).unref())]).finally(killGroup);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killByClock(`killed at its wall clock (${Math.round(options.timeoutMs / 1000)} s)`, true);
    }, options.timeoutMs);
    const idle = options.idleTimeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          idleTimedOut = true;
          killByClock(`killed after ${Math.round(options.idleTimeoutMs! / 1000)} s without output`);
        }, options.idleTimeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    let writes = Promise.resolve();
    // a log that cannot be written (a full disk) ends the program: its output would be lost, and the error is bakeoff's to report once the group is gone
    let writeError: unknown;
    child.stdout!.on('data', (chunk: Buffer) => {
      idle?.refresh();
      options.onOutput?.(chunk);
      writes = writes.then(() => (writeError === undefined ? log.write(chunk) : undefined)).catch((error: unknown) => {
        writeError ??= error;
        killGroup();
      });
    });
    const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: string | null }>((resolve, reject) => {
      child.once('error', (error) => reject(new InfraError(`could not start ${options.argv[0]}: ${error.message}`, { cause: error })));
      // 'close': the process ended and its pipe is drained (every descendant holding it is gone)
      child.once('close', (code, sig) => resolve({ exitCode: code, signal: sig }));
    }).finally(() => {
      release();
      clearTimeout(timer);
      clearTimeout(idle);
      options.signal?.removeEventListener('abort', onAbort);
    });
    await writes;
    if (writeError !== undefined) throw writeError;
    const kept = await log.finish();
    return { exitCode, signal, timedOut, idleTimedOut, aborted, durationMs: performance.now() - started, ...kept };
  } finally {
    await log.close();
  }
}

/** The parts of an {@link ExecRequest} that {@link spawnLogged} takes as they are. */
export function loggedOptionsOf(request: ExecRequest) {
  return {
    outputPath: request.outputPath,
    timeoutMs: request.timeoutMs,
    ...(request.maxOutputBytes !== undefined ? { maxOutputBytes: request.maxOutputBytes } : {}),
    ...(request.idleTimeoutMs !== undefined ? { idleTimeoutMs: request.idleTimeoutMs } : {}),
    ...(request.onOutput ? { onOutput: request.onOutput } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  };
}

interface CappedLog {
  write(chunk: Buffer): Promise<void>;
  finish(): Promise<{ outputTail: string; outputBytes: number; outputTruncated: boolean }>;
  close(): Promise<void>;
}

/** A log file that keeps the head as it comes and the tail in a ring, within `maxBytes`. */
async function createCappedLog(file: string, maxBytes: number): Promise<CappedLog> {
  const handle = await open(file, 'a');
  const headBytes = Math.floor(maxBytes / 8);
  const tail = new TailRing(maxBytes - headBytes);
  const recent = new TailRing(TAIL_BYTES);
  let total = 0;
  let closed = false;
  return {
    async write(chunk) {
      const headPart = chunk.subarray(0, Math.max(0, headBytes - total));
      if (headPart.length > 0) await handle.write(headPart);
      tail.push(chunk.subarray(headPart.length));
      recent.push(chunk);
      total += chunk.length;
    },
    async finish() {
      const kept = tail.contents();
      const cut = total - Math.min(total, headBytes) - kept.length;
      if (cut > 0) await handle.write(`\n[bakeoff: ${cut} bytes of output cut here; ${total} bytes printed in all]\n`);
      if (kept.length > 0) await handle.write(kept);
      return { outputTail: recent.contents().toString('utf8'), outputBytes: total, outputTruncated: cut > 0 };
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

/**
 * The last `capacity` bytes pushed, in one buffer used as a ring: grown (doubling) while less was
 * pushed, then written over in place. Each chunk is copied once into it and never kept: a flood
 * of output (hundreds of MiB) allocates nothing per chunk, which kept bakeoff's own process busy
 * collecting garbage (seconds of CPU per 600 MiB with the chunks copied and queued).
 */
export class TailRing {
  private buf: Buffer = Buffer.alloc(0);
  /** Bytes in `buf` that hold output (all of it once the ring has wrapped). */
  private used = 0;
  /** Where the next byte goes once the ring is full; `buf` is in order from here. */
  private at = 0;
  private wrapped = false;

  constructor(private readonly capacity: number) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0 || this.capacity === 0) return;
    // only the last `capacity` bytes of a chunk can stay
    const data = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    if (!this.wrapped && this.used + data.length <= this.capacity) {
      if (this.used + data.length > this.buf.length) {
        const grown = Buffer.allocUnsafe(Math.min(this.capacity, Math.max(this.used + data.length, this.buf.length * 2, 4096)));
        this.buf.copy(grown, 0, 0, this.used);
        this.buf = grown;
      }
      data.copy(this.buf, this.used);
      this.used += data.length;
      this.at = this.used % this.capacity;
      this.wrapped = this.used === this.capacity;
      return;
    }
    if (this.buf.length < this.capacity) {
      const grown = Buffer.allocUnsafe(this.capacity);
      this.buf.copy(grown, 0, 0, this.used);
      this.buf = grown;
      this.at = this.used;
    }
    this.wrapped = true;
    this.used = this.capacity;
    const first = Math.min(data.length, this.capacity - this.at);
    data.copy(this.buf, this.at, 0, first);
    data.copy(this.buf, 0, first);
    this.at = (this.at + data.length) % this.capacity;
  }

  contents(): Buffer {
    if (!this.wrapped) return Buffer.from(this.buf.subarray(0, this.used));
    return Buffer.concat([this.buf.subarray(this.at), this.buf.subarray(0, this.at)]);
  }
}
