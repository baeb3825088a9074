import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { chmod, copyFile, link, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { buildOnce, dirs, findPackageStores } from './package-stores.js';

/**
 * The machine's Python bytecode as PYTHONPYCACHEPREFIX wants it, for the sandbox to mount
 * read-only at `PYTHON_BYTECODE_INSIDE` (util): for every `.pyc` the host's toolchains compiled
 * when they were installed (`<folder>/__pycache__/<module>.cpython-3X.pyc`, under a Python's
 * `lib/python3.X`, its site-packages included), a hard link at `<view>/<folder>/<module>.cpython-3X.pyc`.
 * Python checks each against its source's size and mtime as usual, so a stale one is compiled
 * afresh; optimised (`.opt-N`) bytecode is left out. Only folders of the toolchains are in it —
 * written by whoever installed them, never by a task — so no module of a repo has bytecode here.
 * Made once per machine and toolchain state under `viewsDir` (keyed by each Python folder's
 * path and mtime, which an install or removal changes); nothing to make (no Python) is null.
 */
export async function pythonBytecode(roots: readonly string[], viewsDir: string): Promise<string | null> {
  const folders = pythonFolders(roots);
  if (folders.length === 0) return null;
  const stamps = folders.map((folder) => `${folder} ${statSync(folder).mtimeMs}`);
  const name = `bytecode-${createHash('sha256').update(JSON.stringify(stamps)).digest('hex').slice(0, 24)}`;
  return buildOnce(viewsDir, name, async (making) => {
    for (const folder of folders) await linkBytecode(folder, making);
  });
}

/** Each toolchain's `lib/python3.X` (standard library and site-packages) and Debian's `lib/python3` under the roots. */
export function pythonFolders(roots: readonly string[]): string[] {
  const found = new Set<string>();
  for (const root of roots) {
    for (const store of findPackageStores(root)) {
      if (store.kind !== 'python site-packages') continue;
      const lib = path.dirname(store.path);
      found.add(lib);
      // Debian keeps the standard library beside dist-packages' folder: /usr/lib/python3.11 next to /usr/lib/python3
      for (const sibling of dirs(path.dirname(lib))) if (/^python3\.\d+$/.test(sibling)) found.add(path.join(path.dirname(lib), sibling));
    }
  }
  return [...found].filter((folder) => existsSync(folder)).sort();
}

async function linkBytecode(folder: string, view: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory()) continue;
    const inner = path.join(folder, entry.name);
    if (entry.name !== '__pycache__') {
      await linkBytecode(inner, view);
      continue;
    }
    for (const file of await readdir(inner).catch(() => [] as string[])) {
      if (!/^[^.]+\.cpython-\d+\.pyc$/.test(file)) continue;
      const to = path.join(view, folder, file);
      await mkdir(path.dirname(to), { recursive: true, mode: 0o755 });
      await link(path.join(inner, file), to).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return;
        if (error.code !== 'EXDEV' && error.code !== 'EPERM') throw error;
        await copyFile(path.join(inner, file), to);
        await chmod(to, 0o644);
      });
    }
  }
}
