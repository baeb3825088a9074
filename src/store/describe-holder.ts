import os from 'node:os';
import path from 'node:path';
import { escapeControl, quoteShellArg, type ProcessIdentity } from '../util/index.js';
import { resultsPaths } from './run-folder.js';

/** Who holds (or last held) a results folder. */
export interface LockHolder extends ProcessIdentity {
  readonly schemaVersion: 1;
  /** The bakeoff command holding it: `run`, `verify`, `publish`. */
  readonly command: string;
  /** The holder's command line, and the folder it ran in. */
  readonly argv: readonly string[];
  readonly cwd: string;
  /** When the holder process started (ISO). */
  readonly startedAt: string;
  /** When it took the lock (ISO). */
  readonly since: string;
}

/**
 * One line about a lock holder for a terminal, e.g.
 * `pid 4242 on host ci-3 (bakeoff run, started 2025-01-01T10:00:00.000Z, 3 min ago): node bin/bakeoff.js run suite --agent gold (in /home/me/evals)`
 */
export function describeHolder(holder: LockHolder, now: Date = new Date()): string {
  const argv = holder.argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : quoteShellArg(a))).join(' ');
  const age = ago(now.getTime() - Date.parse(holder.startedAt));
  const where = typeof holder.cwd === 'string' ? ` (in ${holder.cwd})` : '';
  return escapeControl(`pid ${holder.pid} on host ${holder.host} (bakeoff ${holder.command}, started ${holder.startedAt}${age ? `, ${age}` : ''}): ${argv}${where}`);
}

/**
 * Why a results folder cannot be had now, and what to do: wait (`--wait`), stop the holder
 * (`kill <pid>`), or — for a record from another host, which cannot be checked from here —
 * delete the record once sure nothing runs there.
 */
export function refusal(dir: string, holder: LockHolder | null, why: 'held' | 'other-host'): string {
  const wait = 'run the same command with --wait to start when it ends';
  if (holder === null) {
    return `${dir} is in use by another process that has not said who it is (no ${path.basename(resultsPaths(dir).holder)} yet); ${wait}, or find it with \`fuser ${resultsPaths(dir).lock}\``;
  }
  if (why === 'other-host') {
    return (
      `${dir} is locked by bakeoff on another host: ${describeHolder(holder)}. bakeoff cannot tell from ${os.hostname()} whether it still runs; ` +
      `${wait}, or, if you are sure it has stopped, delete ${resultsPaths(dir).holder} and run again`
    );
  }
  return `${dir} is in use by another bakeoff: ${describeHolder(holder)}. One bakeoff at a time per results folder: ${wait}, stop it with \`kill ${holder.pid}\`, or use another results folder`;
}

function ago(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s} s ago`;
  const m = Math.round(s / 60);
  return m < 90 ? `${m} min ago` : `${Math.round(m / 60)} h ago`;
}
