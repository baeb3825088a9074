import { existsSync } from 'node:fs';
import { chown, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Bind } from '../sandbox/index.js';

/*
 * The code of the test runner itself lives in setup outputs of the prepared repo — the
 * JavaScript runners and everything they load in node_modules (their `.bin` shims included), a
 * Python runner in a virtualenv setup made inside the repo — and the grading copy is writable.
 * Code of the change that runs early in a grading (a test file's import, a worker) could rewrite
 * what a later process loads: the worker that runs a hidden test file, a chunk the runner's main
 * process imports lazily, the reporter. So those folders are shown to the tests read-only, as
 * they are in the prepared repo. Inside node_modules, vite and vitest keep what they write while
 * they start (the bundled config, the results cache) in `.vite-temp` and `.vite`: each gets a
 * fresh, empty, writable folder per grading (nothing of the prepared repo's is read from there).
 *
 *   <repo>/node_modules            read-only (and any node_modules up to 3 folders down)
 *   <repo>/node_modules/.vite      fresh writable folder   (vitest's results cache)
 *   <repo>/node_modules/.vite-temp fresh writable folder   (vite's bundled config)
 *   <repo>/<venv>                  read-only (a folder holding pyvenv.cfg, up to 2 down)
 */

const WRITABLE_IN_NODE_MODULES = ['.vite', '.vite-temp'] as const;
const SKIP = new Set(['.git', 'node_modules', 'target', '__pycache__']);

/** Repo-relative folders holding runner code in the prepared repo (node_modules, virtualenvs); found once per prepared repo. */
const found = new Map<string, Promise<{ nodeModules: string[]; venvs: string[] }>>();

function runnerCodeDirs(preparedRepo: string): Promise<{ nodeModules: string[]; venvs: string[] }> {
  let dirs = found.get(preparedRepo);
  if (!dirs) {
    dirs = scan(preparedRepo);
    found.set(preparedRepo, dirs);
    dirs.catch(() => found.delete(preparedRepo));
  }
  return dirs;
}

async function scan(repo: string): Promise<{ nodeModules: string[]; venvs: string[] }> {
  const nodeModules: string[] = [];
  const venvs: string[] = [];
  const walk = async (rel: string, depth: number): Promise<void> => {
    for (const entry of await readdir(path.join(repo, rel), { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory()) continue;
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.name === 'node_modules') nodeModules.push(child);
      else if (depth < 2 && existsSync(path.join(repo, child, 'pyvenv.cfg'))) venvs.push(child);
      else if (depth < 3 && !SKIP.has(entry.name)) await walk(child, depth + 1);
    }
  };
  await walk('', 0);
  return { nodeModules: nodeModules.sort(), venvs: venvs.sort() };
}

/**
 * Binds that show the runner's code read-only in the grading copy `repoDir`, with fresh writable
 * folders (made under `scratchDir`, owned by `owner`) for what vite and vitest write into
 * node_modules. To come after the repo's own bind.
 */
export async function runnerCodeBinds(options: {
  readonly preparedRepo: string;
  readonly repoDir: string;
  readonly scratchDir: string;
  readonly owner: { readonly uid: number; readonly gid: number } | null;
}): Promise<Bind[]> {
  const { nodeModules, venvs } = await runnerCodeDirs(options.preparedRepo);
  const binds: Bind[] = [];
  for (const rel of venvs) binds.push({ path: path.join(options.repoDir, rel), writable: false });
  for (const [i, rel] of nodeModules.entries()) {
    const dir = path.join(options.repoDir, rel);
    if (!existsSync(dir)) continue;
    binds.push({ path: dir, writable: false });
    for (const name of WRITABLE_IN_NODE_MODULES) {
      // the mount point is made in the grading copy (a read-only folder cannot get one inside the sandbox)
      await mkdir(path.join(dir, name), { recursive: true });
      const source = path.join(options.scratchDir, 'runner-writable', String(i), name);
      await mkdir(source, { recursive: true, mode: 0o755 });
      if (options.owner) await chown(source, options.owner.uid, options.owner.gid);
      binds.push({ path: path.join(dir, name), writable: true, source });
    }
  }
  return binds;
}
