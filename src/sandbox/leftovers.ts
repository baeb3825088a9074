import { readdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { judgeProcess, type ProcessIdentity } from '../util/index.js';
import { listCommandCgroups, removeStaleCgroup } from './cgroups.js';
import { disposeScratch, mountsUnder } from './workspace.js';

/**
 * What bakeoff processes leave on the machine when they are killed before they can clean up
 * (kill -9, a power cut): scratch roots under the system temp folder with the overlay and tmpfs
 * mounts in them, and per-command cgroups with whatever still runs in them. Every bakeoff
 * command sweeps those whose owner is gone as it starts ({@link sweepLeftovers}); `bakeoff
 * doctor` lists all of them ({@link findLeftovers}) and cleans on request ({@link cleanLeftovers}).
 */

/** Who made a scratch root: its owner file judged on this machine, or `unknown` without one. */
export type OwnerState = 'alive' | 'gone' | 'other-host' | 'unknown';

export interface ScratchLeftover {
  readonly kind: 'scratch';
  readonly path: string;
  readonly owner: OwnerState;
  /** The owner's pid, when an owner file names one. */
  readonly pid?: number;
  /** Mount points inside it (overlays of workspaces, bounded tmpfs folders). */
  readonly mounts: number;
  /** Seconds since the root last changed. */
  readonly ageSec: number;
}

export interface CgroupLeftover {
  readonly kind: 'cgroup';
  /** One folder per hierarchy (cgroup v1 has four, v2 one). */
  readonly paths: readonly string[];
  readonly name: string;
  readonly owner: 'alive' | 'gone';
  readonly pid: number;
  /** Processes still in the group. */
  readonly processes: number;
}

export type Leftover = ScratchLeftover | CgroupLeftover;

/** A scratch root without an owner file is only cleaned on request once it is this old (one may be in the making). */
export const UNKNOWN_GRACE_SEC = 600;

/** Every scratch root and command cgroup on this machine, live or not, oldest first. */
export async function findLeftovers(): Promise<Leftover[]> {
  return [...(await scratchLeftovers()), ...(await cgroupLeftovers())];
}

/**
 * Whether {@link cleanLeftovers} removes a leftover: its owner is gone, or (only when the
 * operator asks, `includeUnknown`) it has no owner file and has not changed for
 * {@link UNKNOWN_GRACE_SEC}. A live owner's and another host's are never touched.
 */
export function isStale(leftover: Leftover, options: { includeUnknown: boolean }): boolean {
  if (leftover.owner === 'gone') return true;
  return leftover.kind === 'scratch' && leftover.owner === 'unknown' && options.includeUnknown && leftover.ageSec >= UNKNOWN_GRACE_SEC;
}

export interface CleanResult {
  readonly removed: readonly Leftover[];
  readonly failed: readonly { readonly leftover: Leftover; readonly error: string }[];
}

/** Removes the stale ones of `leftovers` (see {@link isStale}): unmounts and deletes roots, kills and removes groups. */
export async function cleanLeftovers(leftovers: readonly Leftover[], options: { includeUnknown: boolean }): Promise<CleanResult> {
  const removed: Leftover[] = [];
  const failed: { leftover: Leftover; error: string }[] = [];
  for (const leftover of leftovers.filter((l) => isStale(l, options))) {
    try {
      if (leftover.kind === 'scratch') await disposeScratch(leftover.path);
      else await removeStaleCgroup(leftover.paths);
      removed.push(leftover);
    } catch (error) {
      failed.push({ leftover, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return { removed, failed };
}

let swept: Promise<{ readonly removed: number; readonly notes: readonly string[] }> | undefined;

/**
 * What every bakeoff command does first: removes what killed bakeoffs left. Once per process
 * (the CLI sweeps before its command, a library caller when it makes its isolation; the second
 * call gets the first's answer). Never throws; failures come back as notes.
 */
export function sweepLeftovers(): Promise<{ readonly removed: number; readonly notes: readonly string[] }> {
  swept ??= sweepOnce();
  return swept;
}

async function sweepOnce(): Promise<{ readonly removed: number; readonly notes: readonly string[] }> {
  try {
    const { removed, failed } = await cleanLeftovers(await findLeftovers(), { includeUnknown: false });
    const notes = failed.map(({ leftover, error }) => `could not clean up after a killed bakeoff: ${describeLeftover(leftover)}: ${error} (bakeoff doctor lists what is left)`);
    return { removed: removed.length, notes };
  } catch (error) {
    return { removed: 0, notes: [`could not look for what killed bakeoffs left: ${error instanceof Error ? error.message : String(error)}`] };
  }
}

/** One line naming a leftover: `/tmp/bakeoff-scratch/ab12… (2 mounts; owner pid 4711, gone)`. */
export function describeLeftover(leftover: Leftover): string {
  if (leftover.kind === 'scratch') {
    const owner = leftover.owner === 'unknown' ? 'no owner file' : `owner pid ${leftover.pid}, ${leftover.owner === 'alive' ? 'running' : leftover.owner}`;
    return `${leftover.path} (scratch root; ${leftover.mounts} mount${leftover.mounts === 1 ? '' : 's'}; ${owner})`;
  }
  const state = leftover.owner === 'alive' ? 'running' : 'gone';
  return `${leftover.paths[0]} (cgroup; ${leftover.processes} process${leftover.processes === 1 ? '' : 'es'}; creator pid ${leftover.pid}, ${state})`;
}

function scratchBase(): string {
  return path.join(os.tmpdir(), 'bakeoff-scratch');
}

async function scratchLeftovers(): Promise<ScratchLeftover[]> {
  const base = scratchBase();
  const names = await readdir(base).catch(() => [] as string[]);
  const found: ScratchLeftover[] = [];
  for (const name of names.filter((n) => !n.endsWith('.owner'))) {
    const dir = path.join(base, name);
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) continue;
    const owner = await readOwner(`${dir}.owner`);
    found.push({
      kind: 'scratch',
      path: dir,
      owner: owner === null ? 'unknown' : judgeProcess(owner),
      ...(owner !== null ? { pid: owner.pid } : {}),
      mounts: (await mountsUnder(dir)).length,
      ageSec: Math.max(0, Math.round((Date.now() - info.mtimeMs) / 1000)),
    });
  }
  return found.sort((a, b) => b.ageSec - a.ageSec);
}

async function readOwner(file: string): Promise<ProcessIdentity | null> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<ProcessIdentity>;
    return typeof parsed.pid === 'number' && typeof parsed.startTicks === 'string' && typeof parsed.bootId === 'string' && typeof parsed.host === 'string' ? (parsed as ProcessIdentity) : null;
  } catch {
    return null;
  }
}

async function cgroupLeftovers(): Promise<CgroupLeftover[]> {
  return (await listCommandCgroups()).map((group) => ({
    kind: 'cgroup',
    paths: group.paths,
    name: group.name,
    owner: group.creatorAlive ? 'alive' : 'gone',
    pid: group.pid,
    processes: group.processes,
  }));
}
