import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const FIXTURES = path.join(ROOT, 'test/fixtures');
export const BIN = path.join(ROOT, 'bin/bakeoff.js');

/**
 * npm as a machine with a warm package cache runs it: cached tarballs and metadata without
 * asking the registry again, no audit, no funding notes (the tasks' setups install from
 * lockfiles, so the installed tree is the same; npm ci alone spent a third of its CPU asking).
 */
export const NPM_OFFLINE_ENV = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' } as const;

/** Runs the built CLI the way a user does; never throws on a non-zero exit. */
export async function bakeoff(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const result = await execa(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { NO_COLOR: '1', ...NPM_OFFLINE_ENV, ...options.env },
    reject: false,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** A private copy of a fixture suite (validate writes TASKS.md and the lock into it). */
export async function copySuite(dir: string): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-e2e-'));
  const target = path.join(tmp, path.basename(dir));
  await cp(dir, target, { recursive: true });
  return target;
}

export async function tempDir(prefix = 'bakeoff-e2e-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}

/**
 * Makes the lock of a copied, validated suite admit only `tasks`: the suite and its hash are
 * unchanged, so `bakeoff run` accepts the lock and runs only those tasks.
 */
export async function admitOnly(suiteDir: string, tasks: readonly string[]): Promise<void> {
  const lockFile = path.join(suiteDir, 'bakeoff.lock.json');
  const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { tasks: Record<string, unknown> };
  lock.tasks = Object.fromEntries(Object.entries(lock.tasks).filter(([id]) => tasks.includes(id)));
  await writeFile(lockFile, JSON.stringify(lock, null, 2) + '\n');
}
