import { execFile } from 'node:child_process';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { InfraError } from '../errors.js';

const run = promisify(execFile);

/** A writable copy of a prepared repo. The prepared repo itself is never written. */
export interface Workspace {
  /** The folder the agent or grader works in. */
  readonly dir: string;
  /** `overlay`: overlayfs over the prepared repo (fast, the upper dir is the change); `copy`: a full copy. */
  readonly mode: 'overlay' | 'copy';
  dispose(): Promise<void>;
}

let overlayWorks: boolean | undefined;

/**
 * Makes a workspace under `scratchDir` (which must not exist yet). Uses overlayfs when this
 * process may mount it (root), else a full copy.
 */
export async function createWorkspace(preparedRepo: string, scratchDir: string): Promise<Workspace> {
  await mkdir(scratchDir, { recursive: true });
  const merged = path.join(scratchDir, 'ws');
  await mkdir(merged);
  if (overlayWorks !== false && process.getuid?.() === 0) {
    const upper = path.join(scratchDir, 'upper');
    const work = path.join(scratchDir, 'work');
    await mkdir(upper);
    await mkdir(work);
    try {
      const options = `lowerdir=${preparedRepo},upperdir=${upper},workdir=${work},redirect_dir=on`;
      await run('mount', ['-t', 'overlay', 'overlay', '-o', options, merged]);
      overlayWorks = true;
      return { dir: merged, mode: 'overlay', dispose: () => disposeScratch(scratchDir) };
    } catch {
      overlayWorks = false;
    }
  }
  try {
    await run('cp', ['-a', `${preparedRepo}/.`, merged]);
  } catch (error) {
    throw new InfraError(`could not copy ${preparedRepo} to ${merged}`, { cause: error });
  }
  return { dir: merged, mode: 'copy', dispose: () => disposeScratch(scratchDir) };
}

/** Unmounts anything mounted under `dir` (deepest first) and deletes it. */
export async function disposeScratch(dir: string): Promise<void> {
  for (const mountPoint of await mountsUnder(dir)) {
    try {
      await run('umount', ['-l', mountPoint]);
    } catch {
      // already gone
    }
  }
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

async function mountsUnder(dir: string): Promise<string[]> {
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
