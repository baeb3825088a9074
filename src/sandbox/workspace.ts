import { chmod, lchown, mkdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InfraError, StoppingError } from '../errors.js';
import { currentProcess, holdResource, isStopping, sha256, execFileWithParent } from '../util/index.js';

const run = execFileWithParent;

/** Owner of everything a sandbox may write. */
export interface Owner {
  readonly uid: number;
  readonly gid: number;
}

/** A writable view of a prepared repo. The prepared repo itself is never written. */
export interface Workspace {
  /** The folder the agent or grader works in. */
  readonly dir: string;
  /** `overlay`: overlayfs over the prepared repo (the upper dir is the change); `copy`: a full copy. */
  readonly mode: 'overlay' | 'copy';
  /** `overlay`: the writable layer, which holds exactly what was added or changed (deletions as whiteouts); else null. */
  readonly upperDir: string | null;
  /** True when the workspace's size limit is used up (the disk quota was hit). */
  isFull(): Promise<boolean>;
  dispose(): Promise<void>;
}

export interface WorkspaceOptions {
  /** Owner of the writable layer (the sandbox uid); null keeps the caller's. */
  readonly owner: Owner | null;
  /** Disk quota: size of the tmpfs that holds the writable layer. */
  readonly diskBytes: number;
}

let overlayWorks: boolean | undefined;

/**
 *   <scratchDir>/layer/      tmpfs of `diskBytes` (the quota)
 *   <scratchDir>/layer/upper the change; <scratchDir>/layer/work overlay's own
 *   <scratchDir>/ws          overlayfs: prepared repo below, upper above (redirect_dir=on, so
 *                            renaming a folder of the lower layer works)
 * Where overlayfs cannot be mounted (not root), `ws` is a full copy instead.
 */
export async function createWorkspace(preparedRepo: string, scratchDir: string, options: WorkspaceOptions): Promise<Workspace> {
  if (isStopping()) throw new StoppingError(`not making a workspace in ${scratchDir}: bakeoff is stopping`);
  await mkdir(scratchDir, { recursive: true, mode: 0o711 });
  const merged = path.join(scratchDir, 'ws');
  const layer = path.join(scratchDir, 'layer');
  await mkdir(merged);
  await mkdir(layer);
  const isRoot = process.getuid?.() === 0;
  if (isRoot) await run('mount', ['-t', 'tmpfs', '-o', `size=${options.diskBytes},mode=0711`, 'bakeoff-ws', layer]);
  const isFull = async (): Promise<boolean> => {
    if (!isRoot) return false;
    const st = await statfs(layer).catch(() => undefined);
    return st !== undefined && st.bavail * st.bsize < 64 * 1024;
  };
  const dispose = (): Promise<void> => disposeScratch(scratchDir);
  if (overlayWorks !== false && isRoot) {
    const upper = path.join(layer, 'upper');
    const work = path.join(layer, 'work');
    await mkdir(upper);
    await mkdir(work);
    // two empty folders made just now: chown(2) them here rather than start chown -R
    if (options.owner) await Promise.all([upper, work].map((dir) => lchown(dir, options.owner!.uid, options.owner!.gid)));
    try {
      const mountOptions = `lowerdir=${preparedRepo},upperdir=${upper},workdir=${work},redirect_dir=on`;
      await run('mount', ['-t', 'overlay', 'overlay', '-o', mountOptions, merged]);
      overlayWorks = true;
      return { dir: merged, mode: 'overlay', upperDir: upper, isFull, dispose };
    } catch {
      overlayWorks = false;
    }
  }
  try {
    await run('cp', ['-a', `${preparedRepo}/.`, merged]);
    if (options.owner) await chownTree([merged], options.owner);
  } catch (error) {
    throw new InfraError(`could not copy ${preparedRepo} to ${merged}`, { cause: error });
  }
  return { dir: merged, mode: 'copy', upperDir: null, isFull, dispose };
}

/**
 * A folder whose content cannot grow past `bytes`: a tmpfs when bakeoff runs as root (its pages
 * are charged to whoever writes them), a plain folder otherwise. Removed with its scratch
 * folder ({@link disposeScratch} unmounts it).
 */
export async function createBoundedDir(dir: string, bytes: number, mode: number): Promise<void> {
  if (isStopping()) throw new StoppingError(`not mounting ${dir}: bakeoff is stopping`);
  await mkdir(dir, { recursive: true, mode });
  if (process.getuid?.() === 0) await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=${mode.toString(8)}`, 'bakeoff-bounded', dir]);
}

/** A private scratch root under the system temp folder that a sandbox uid can traverse but not list. */
export async function scratchRoot(key: string): Promise<string> {
  const base = path.join(os.tmpdir(), 'bakeoff-scratch');
  await mkdir(base, { recursive: true });
  await chmod(base, 0o711);
  const dir = path.join(base, sha256(key).slice(0, 16));
  await mkdir(dir, { recursive: true, mode: 0o711 });
  return dir;
}

/** Makes `dir` (and its content) belong to the sandbox owner. */
export async function chownTree(dirs: readonly string[], owner: Owner): Promise<void> {
  await run('chown', ['-R', '-h', `${owner.uid}:${owner.gid}`, ...dirs]);
}

/** Held scratch roots (see {@link freshScratchRoot}) and how to let go of each. */
const held = new Map<string, () => void>();

/**
 * {@link scratchRoot} emptied of whatever an earlier process left in it, owned by this process
 * (`<root>.owner` says who, so the next bakeoff can clear it after a kill -9: see leftovers.ts) and held
 * for a stop (SIGINT) to dispose of. Dispose of it with {@link disposeScratch}.
 */
export async function freshScratchRoot(key: string): Promise<string> {
  const dir = await scratchRoot(key);
  await disposeScratch(dir);
  await mkdir(dir, { recursive: true, mode: 0o711 });
  await writeFile(`${dir}.owner`, JSON.stringify(currentProcess()));
  held.set(dir, holdResource(() => disposeScratch(dir)));
  return dir;
}

/** Unmounts anything mounted under `dir` (deepest first) and deletes it (and, for a held root, its owner file). */
export async function disposeScratch(dir: string): Promise<void> {
  const release = held.get(dir);
  held.delete(dir);
  release?.();
  const mountPoints = await mountsUnder(dir);
  if (mountPoints.length > 0) {
    // one umount for all of them (a run leaves half a dozen): umount(8) tries every target,
    // deepest first as listed, and fails only after the last; one that is already gone is no matter
    try {
      await run('umount', ['-l', ...mountPoints]);
    } catch {
      // already gone
    }
  }
  await removeTree(dir);
  await rm(`${dir}.owner`, { force: true });
}

/**
 * Deletes a folder whatever it holds: Node's rm names every entry by its whole path, which a
 * tree deeper than PATH_MAX (an agent can make one, one relative folder at a time) defeats; rm(1)
 * walks it relative to each folder.
 */
async function removeTree(dir: string): Promise<void> {
  try {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw error;
    await run('rm', ['-rf', '--one-file-system', '--', dir]);
  }
}

/** Mount points at or under `dir`, deepest first. */
export async function mountsUnder(dir: string): Promise<string[]> {
  const root = path.resolve(dir);
  let text: string;
  try {
    text = await readFile('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => line.split(' ')[4]?.replace(/\\040/g, ' '))
    .filter((p): p is string => !!p && (p === root || p.startsWith(root + '/')))
    .sort((a, b) => b.length - a.length);
}
