import { lstat, readdir, readlink, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Names never taken from a suite: VCS data, caches and setup outputs left by a local run. */
export const IGNORED_NAMES: ReadonlySet<string> = new Set([
  '.git',
  '__pycache__',
  '.pytest_cache',
  'node_modules',
  'target',
  '.DS_Store',
]);

export interface TreeEntry {
  /** Path relative to the root, with `/` separators. */
  readonly rel: string;
  readonly type: 'file' | 'symlink';
  /** True when the owner execute bit is set (files only). */
  readonly executable: boolean;
}

/**
 * Every file and symlink under `root`, sorted by path in byte order (never locale order, so
 * the listing is the same on every machine). Directories are implied by their contents.
 */
export async function listTree(root: string): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  async function walk(rel: string): Promise<void> {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true });
    for (const entry of entries) {
      if (IGNORED_NAMES.has(entry.name)) continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(childRel);
      else if (entry.isSymbolicLink()) out.push({ rel: childRel, type: 'symlink', executable: false });
      else if (entry.isFile()) {
        const st = await lstat(path.join(root, childRel));
        out.push({ rel: childRel, type: 'file', executable: (st.mode & 0o100) !== 0 });
      }
    }
  }
  await walk('');
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

/** The bytes that define an entry: file content, or the link target. */
export async function readEntry(root: string, entry: TreeEntry): Promise<Buffer> {
  const full = path.join(root, entry.rel);
  return entry.type === 'symlink' ? Buffer.from(await readlink(full)) : readFile(full);
}

export async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}
