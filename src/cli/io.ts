import { InvalidArgumentError } from 'commander';
import { cacheDirOf, type Place } from '../api/paths.js';

/** Where a command writes: stdout for results, stderr for progress and warnings. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Stop cleanly on SIGINT / SIGTERM (the real process; not when main runs inside a test). */
  readonly handleSignals?: boolean;
}

export const EXIT = { ok: 0, checksFailed: 1, usage: 2, infra: 3, interrupted: 130 } as const;

/** Prepared repos and validation scratch: `$BAKEOFF_CACHE_DIR`, else `~/.cache/bakeoff`. */
export function cacheDir(io: CliIo): string {
  return cacheDirOf({ cwd: io.cwd, env: io.env });
}

/** Where a library call runs for this command: its cwd, environment and cache folder. */
export function placeOf(io: CliIo): Place {
  return { cwd: io.cwd, env: io.env, cacheDir: cacheDir(io) };
}

/** The flags of every command that takes the results folder's lock and runs the sandbox, with {@link placeOf}. */
export function lockedWork<C extends number | 'auto'>(flags: { readonly concurrency: C; readonly wait: boolean; readonly unsafeNoSandbox: boolean }, io: CliIo) {
  return { concurrency: flags.concurrency, wait: flags.wait, unsafeNoSandbox: flags.unsafeNoSandbox, ...placeOf(io) };
}

/** `--concurrency` of `run`: a whole number >= 1, or `auto` (one more run only while the machine has room, measured). */
export function parseConcurrency(value: string): number | 'auto' {
  if (value === 'auto') return 'auto';
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected auto or a whole number >= 1, received ${JSON.stringify(value)}`);
  return n;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number >= 1, received ${JSON.stringify(value)}`);
  return n;
}

/** A whole number from 0 (a 0-based index). */
export function parseIndex(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a whole number >= 0, received ${JSON.stringify(value)}`);
  return n;
}

/** A TCP port to listen on: 1–65535. */
export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError(`expected a port from 1 to 65535, received ${JSON.stringify(value)}`);
  return n;
}

/** `bakeoff report --format`: what the leaderboard is rendered as. */
export const OUTPUT_FORMATS = ['table', 'md', 'json', 'html'] as const;
