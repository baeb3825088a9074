import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { InfraError } from '../errors.js';

const TAIL_BYTES = 64 * 1024;

export interface SpawnLoggedResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly outputTail: string;
}

/**
 * Spawns `argv` in a new process group with stdout and stderr appended, interleaved, to
 * `outputPath`; at `timeoutMs` the whole group is SIGKILLed. Never throws for the program's
 * own failure, only when it cannot be started.
 */
export async function spawnLogged(options: {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly outputPath: string;
  readonly timeoutMs: number;
  readonly cwd?: string;
}): Promise<SpawnLoggedResult> {
  const [program, ...args] = options.argv;
  const fd = openSync(options.outputPath, 'a');
  const started = performance.now();
  let timedOut = false;
  try {
    const child = spawn(program!, args, { env: options.env, stdio: ['ignore', fd, fd], detached: true, cwd: options.cwd ?? '/' });
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, options.timeoutMs);
    const { exitCode, signal } = await new Promise<{ exitCode: number | null; signal: string | null }>((resolve, reject) => {
      child.once('error', (error) => reject(new InfraError(`could not start ${program}: ${error.message}`, { cause: error })));
      child.once('close', (code, sig) => resolve({ exitCode: code, signal: sig }));
    }).finally(() => clearTimeout(timer));
    return { exitCode, signal, timedOut, durationMs: performance.now() - started, outputTail: await readTail(options.outputPath) };
  } finally {
    closeSync(fd);
  }
}

async function readTail(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
