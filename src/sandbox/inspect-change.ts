import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { quotedPath } from '../util/index.js';
import { git, openWorkspaceGit } from './git.js';
import type { Workspace } from './workspace.js';

/** Why a workspace's change cannot be graded: the agent's doing, never bakeoff's. */
export interface ChangeProblem {
  readonly reason: 'change-too-large' | 'unsupported-file';
  readonly detail: string;
}

interface Found {
  /** Regular files added or changed, with their apparent size (a sparse file counts in full). */
  readonly files: { rel: string; bytes: number }[];
  /** `.git` entries below the top: nested repositories, which a patch cannot carry. */
  readonly nestedGit: string[];
  /** Paths whose names are not UTF-8. */
  readonly badNames: string[];
}

/**
 * Looks at what the agent added or changed before git ever reads it, so that nothing a change
 * holds can make the host side fail: a change bigger than `maxBytes` (a 2 GiB sparse file, a
 * 600 MB dump), a nested git repository (host git would read its `.gitmodules`), a file name
 * that is not UTF-8. Setup outputs and whatever the prepared repo's exclude list and the
 * change's own .gitignore files leave out do not count. Reads only names and sizes: the
 * overlay's writable layer when there is one (it holds exactly the change), else the whole
 * workspace compared with the prepared repo by size and mtime.
 */
export async function inspectChange(options: {
  readonly workspace: Workspace;
  readonly preparedRepo: string;
  readonly maxBytes: number;
}): Promise<ChangeProblem | null> {
  const { workspace, preparedRepo } = options;
  const found: Found = { files: [], nestedGit: [], badNames: [] };
  const root = workspace.upperDir ?? workspace.dir;
  await walk(root, '', found, workspace.upperDir === null ? preparedRepo : null);
  const total = found.files.reduce((sum, f) => sum + f.bytes, 0);
  if (total <= options.maxBytes && found.nestedGit.length === 0 && found.badNames.length === 0) return null;
  const ignored = await ignoredPaths(preparedRepo, workspace.dir, [...found.files.map((f) => f.rel), ...found.nestedGit, ...found.badNames]);
  const nested = found.nestedGit.filter((p) => !ignored.has(p));
  if (nested.length > 0) {
    return { reason: 'unsupported-file', detail: `the change holds a nested git repository (${list(nested)}), which a patch cannot carry; remove its .git or leave it out with .gitignore` };
  }
  const badNames = found.badNames.filter((p) => !ignored.has(p));
  if (badNames.length > 0) return { reason: 'unsupported-file', detail: `file names that are not UTF-8: ${list(badNames)}` };
  const counted = found.files.filter((f) => !ignored.has(f.rel)).sort((a, b) => b.bytes - a.bytes);
  const bytes = counted.reduce((sum, f) => sum + f.bytes, 0);
  if (bytes <= options.maxBytes) return null;
  const largest = counted.slice(0, 3).map((f) => `${quotedPath(f.rel)} ${f.bytes} bytes`).join(', ');
  return {
    reason: 'change-too-large',
    detail: `the change holds ${bytes} bytes in ${counted.length} file(s), more than the limit of ${options.maxBytes} (controls.maxChangeMb); largest: ${largest}`,
  };
}

async function walk(root: string, rel: string, found: Found, compareWith: string | null): Promise<void> {
  const entries: Dirent<Buffer>[] = await readdir(path.join(root, rel), { withFileTypes: true, encoding: 'buffer' });
  for (const entry of entries) {
    const name = entry.name.toString('utf8');
    const childRel = rel === '' ? name : `${rel}/${name}`;
    if (!Buffer.from(name, 'utf8').equals(entry.name)) {
      found.badNames.push(childRel);
      continue;
    }
    if (name === '.git') {
      if (rel !== '') found.nestedGit.push(childRel);
      continue;
    }
    if (entry.isDirectory()) await walk(root, childRel, found, compareWith);
    else if (entry.isFile()) {
      const st = await lstat(path.join(root, childRel));
      if (compareWith !== null && (await sameAsPrepared(compareWith, childRel, st.size, st.mtimeMs))) continue;
      found.files.push({ rel: childRel, bytes: st.size });
    }
    // symlinks are tiny; FIFOs, sockets and devices (overlay whiteouts among them) are never captured
  }
}

async function sameAsPrepared(prepared: string, rel: string, size: number, mtimeMs: number): Promise<boolean> {
  const st = await lstat(path.join(prepared, rel)).catch(() => undefined);
  return st !== undefined && st.isFile() && st.size === size && st.mtimeMs === mtimeMs;
}

/** Which of `paths` git would leave out of the change (excluded or ignored, and not tracked). */
async function ignoredPaths(preparedRepo: string, workspace: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const view = await openWorkspaceGit(preparedRepo, workspace);
  try {
    const out = await git(['check-ignore', '--stdin', '-z'], { cwd: workspace, env: view.env, input: paths.join('\0') + '\0', okExitCodes: [1] });
    return new Set(out.split('\0').filter((p) => p !== ''));
  } finally {
    await view.dispose();
  }
}

function list(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).map(quotedPath).join(', ');
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}
