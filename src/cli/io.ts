import { InvalidArgumentError } from 'commander';
import { cacheDirOf, type Place } from '../api/paths.js';
import { UserError } from '../errors.js';

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

/** The flags of every command that runs the sandbox: `--sandbox <name>`, and its alias `--unsafe-no-sandbox`. */
export interface SandboxFlags {
  readonly sandbox?: string;
  readonly unsafeNoSandbox?: boolean;
}

/** The backend that is `--unsafe-no-sandbox`'s alias. */
const UNSAFE_ALIAS = 'unsafe-no-sandbox';

/**
 * The sandbox backend the flags ask for, by name, or undefined for the default (`bwrap`):
 * `--sandbox <name>` (commander checked the name against the registry), or
 * `--unsafe-no-sandbox`, which is `--sandbox unsafe-no-sandbox`. Both naming different
 * backends is a usage error.
 */
export function sandboxOf(flags: SandboxFlags): string | undefined {
  if (flags.unsafeNoSandbox === true && flags.sandbox !== undefined && flags.sandbox !== UNSAFE_ALIAS) {
    throw new UserError(`--unsafe-no-sandbox is --sandbox ${UNSAFE_ALIAS}, and --sandbox ${flags.sandbox} names another backend: give one of them`);
  }
  return flags.unsafeNoSandbox === true ? UNSAFE_ALIAS : flags.sandbox;
}

/** `{ sandbox }` for a request when the flags name a backend, else nothing (the default). */
export function sandboxRequest(flags: SandboxFlags): { readonly sandbox?: string } {
  const sandbox = sandboxOf(flags);
  return sandbox === undefined ? {} : { sandbox };
}

/** The flags of every command that takes the results folder's lock and runs the sandbox, with {@link placeOf}. */
export function lockedWork<C extends number | 'auto'>(flags: { readonly concurrency: C; readonly wait: boolean } & SandboxFlags, io: CliIo) {
  return { concurrency: flags.concurrency, wait: flags.wait, ...sandboxRequest(flags), ...placeOf(io) };
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
