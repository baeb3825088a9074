import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ResultsBusyError, UserError } from '../errors.js';
import { currentProcess, holdResource, judgeProcess } from '../util/index.js';
import { refusal, type LockHolder } from './describe-holder.js';
import { DATABASE_NAME, resultsPaths } from './run-folder.js';

export type { LockHolder } from './describe-holder.js';

/*
 * One process at a time per results folder (docs/decisions/007):
 *
 *   <out>/holder.lock   an empty SQLite database. Its holder keeps an EXCLUSIVE lock on it (an
 *                       fcntl lock) for as long as it uses the folder; the kernel drops the lock
 *                       when the holder ends, however it ends, so two processes can never both
 *                       hold it. Never deleted: a process still waiting on the old file would
 *                       lock a file no one else sees.
 *   <out>/holder.json   who holds it (LockHolder), written by the holder once it has the lock
 *                       and removed on release. Read to name the holder in a refusal, and to
 *                       refuse when the record names a live process that somehow lacks the lock
 *                       (another host, a lock file deleted under it).
 */

/** A held lock on a results folder. */
export interface ResultsLock {
  /** The results folder (absolute). */
  readonly dir: string;
  readonly holder: LockHolder;
  /** The record of a holder that was gone (killed, or its pid reused) when this lock was taken. */
  readonly tookOverFrom: LockHolder | null;
  /** True until `release`. */
  isHeld(): boolean;
  /** Removes the holder record, then drops the lock. Idempotent. */
  release(): void;
}

export interface LockResultsOptions {
  /** The bakeoff command taking the lock (recorded for whoever is refused). */
  readonly command: string;
  /** Create the folder when missing (`run`); otherwise it must already be a results folder. */
  readonly create: boolean;
  /** Wait until the holder is gone instead of refusing. */
  readonly wait?: boolean;
  /** Called once, when waiting starts, with the holder waited for. */
  readonly onWait?: (holder: LockHolder | null) => void;
  readonly pollMs?: number;
}

/**
 * Takes the results folder's lock, or throws ResultsBusyError naming the holder (pid, host,
 * command line, start time) and how to wait for it or stop it. A record left by a holder that
 * is gone is taken over (`tookOverFrom`); a record from another host is never judged from here.
 */
export async function lockResults(dir: string, options: LockResultsOptions): Promise<ResultsLock> {
  const root = path.resolve(dir);
  if (existsSync(root) && !statSync(root).isDirectory()) throw new UserError(`${dir}: not a folder; a results folder is a folder (choose another one)`);
  if (options.create) mkdirSync(root, { recursive: true });
  else if (!existsSync(resultsPaths(root).database)) throw new UserError(`${dir}: not a results folder (no ${DATABASE_NAME})`);
  let waiting = false;
  for (;;) {
    const attempt = await tryLock(root, options.command);
    if ('lock' in attempt) return attempt.lock;
    if (!options.wait) throw new ResultsBusyError(refusal(dir, attempt.holder, attempt.why));
    if (!waiting) options.onWait?.(attempt.holder);
    waiting = true;
    await sleep(options.pollMs ?? 500);
  }
}

/** The holder record of a results folder, or null when there is none (or it is unreadable). */
export function readHolder(dir: string): LockHolder | null {
  try {
    const data = JSON.parse(readFileSync(resultsPaths(dir).holder, 'utf8')) as LockHolder;
    return data.schemaVersion === 1 && Number.isInteger(data.pid) && typeof data.startTicks === 'string' ? data : null;
  } catch {
    return null;
  }
}

type Attempt = { readonly lock: ResultsLock } | { readonly holder: LockHolder | null; readonly why: 'held' | 'other-host' };

async function tryLock(root: string, command: string): Promise<Attempt> {
  const db = new Database(resultsPaths(root).lock, { timeout: 0 });
  try {
    db.pragma('journal_mode = MEMORY'); // no journal file beside the lock
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
    return { holder: await holderOfBusyLock(root), why: 'held' };
  }
  const previous = readHolder(root);
  const judged = previous ? judgeProcess(previous) : 'gone';
  if (previous && judged !== 'gone') {
    db.close();
    return { holder: previous, why: judged === 'other-host' ? 'other-host' : 'held' };
  }
  const holder: LockHolder = {
    schemaVersion: 1,
    ...currentProcess(),
    command,
    argv: process.argv,
    cwd: process.cwd(),
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    since: new Date().toISOString(),
  };
  const holderFile = resultsPaths(root).holder;
  for (const name of readdirSync(root)) if (name.startsWith(`${path.basename(holderFile)}.tmp-`)) rmSync(path.join(root, name), { force: true });
  const tmp = `${holderFile}.tmp-${process.pid}`;
  writeFileSync(tmp, JSON.stringify(holder, null, 2) + '\n');
  renameSync(tmp, holderFile);
  let held = true;
  // a stop (SIGINT) lets go of the folder last, after everything made under it is undone
  let letGo = (): void => {};
  const lock: ResultsLock = {
    dir: root,
    holder,
    tookOverFrom: previous,
    isHeld: () => held,
    release: () => {
      if (!held) return;
      held = false;
      letGo();
      rmSync(holderFile, { force: true });
      db.close();
    },
  };
  letGo = holdResource(() => lock.release());
  return { lock };
}

/** The record of whoever holds the lock: it writes its record just after taking the lock, so a missing or stale one is read again for a moment. */
async function holderOfBusyLock(root: string): Promise<LockHolder | null> {
  let holder = readHolder(root);
  for (let i = 0; i < 10 && (holder === null || judgeProcess(holder) === 'gone'); i++) {
    await sleep(50);
    holder = readHolder(root);
  }
  return holder !== null && judgeProcess(holder) !== 'gone' ? holder : null;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
