import type { Dir, Dirent, OpenDirOptions } from 'node:fs';
import { lstat, opendir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { quotedPath } from '../util/index.js';
import { git, openWorkspaceGit } from './git.js';
import type { Workspace } from './workspace.js';

/** Why a workspace's change cannot be graded: the agent's doing, never bakeoff's. */
export interface ChangeProblem {
  readonly reason: 'change-too-large' | 'unsupported-file';
  /** The paths (relative to the repo) that make it so, at most 20; none when the count alone does. */
  readonly paths?: readonly string[];
  readonly detail: string;
}

/**
 * What no real change holds, whatever it ignores: a bound on the walk itself, so that an absurd
 * workspace (a path longer than the system allows, folders nested thousands deep, millions of
 * entries) is refused as the agent's, never breaks bakeoff's own host-side steps (scandir, git,
 * the patch, hashing) and never makes the run void.
 */
export const WORKSPACE_BOUNDS = {
  /** Bytes of a path relative to the workspace (PATH_MAX is 4096 for the whole absolute path). */
  pathBytes: 1024,
  /** Folders one path may be nested in. */
  depth: 100,
  /** Files, folders and links the walk looks at, ignored ones included. */
  entries: 500_000,
  /** Files and links the change itself adds or changes (ignored ones not counted). */
  files: 20_000,
} as const;

export type WorkspaceBounds = { readonly [K in keyof typeof WORKSPACE_BOUNDS]: number };

interface Found {
  /** Regular files and links added or changed, with their apparent size (a sparse file counts in full; a link 0). */
  readonly files: { rel: string; bytes: number }[];
  /** `.git` entries below the top: nested repositories, which a patch cannot carry. */
  readonly nestedGit: string[];
  /** Paths whose names are not UTF-8. */
  readonly badNames: string[];
  /** Folders the walk did not go into: past the path length or depth bound, or unreadable by their path (why, each). */
  readonly absurd: { rel: string; why: string }[];
  /** Entries looked at. */
  entries: number;
  readonly bounds: WorkspaceBounds;
}

/**
 * Looks at what the agent added or changed before git ever reads it, so that nothing a change
 * holds can make the host side fail: a change bigger than `maxBytes` (a 2 GiB sparse file, a
 * 600 MB dump), a nested git repository (host git would read its `.gitmodules`), a file name
 * that is not UTF-8, a path or a tree past {@link WORKSPACE_BOUNDS}. Setup outputs and whatever
 * the prepared repo's exclude list and the change's own .gitignore files leave out do not count
 * (except toward the bound on entries). Reads only names and sizes: the overlay's writable
 * layer when there is one (it holds exactly the change), else the whole workspace compared with
 * the prepared repo by size and mtime.
 */
export async function inspectChange(options: {
  readonly workspace: Workspace;
  readonly preparedRepo: string;
  readonly maxBytes: number;
  /** Default {@link WORKSPACE_BOUNDS}. */
  readonly bounds?: WorkspaceBounds;
}): Promise<ChangeProblem | null> {
  const { workspace, preparedRepo } = options;
  const bounds = options.bounds ?? WORKSPACE_BOUNDS;
  const found: Found = { files: [], nestedGit: [], badNames: [], absurd: [], entries: 0, bounds };
  const root = workspace.upperDir ?? workspace.dir;
  await walk(root, '', found, workspace.upperDir === null ? preparedRepo : null);
  if (found.entries > bounds.entries) {
    return {
      reason: 'change-too-large',
      detail: `the workspace holds more than ${bounds.entries} new files and folders (ignored ones included); bakeoff did not look further`,
    };
  }
  const total = found.files.reduce((sum, f) => sum + f.bytes, 0);
  const clean = found.nestedGit.length === 0 && found.badNames.length === 0 && found.absurd.length === 0;
  if (total <= options.maxBytes && found.files.length <= bounds.files && clean) return null;
  const ignored = await ignoredPaths(preparedRepo, workspace.dir, [...found.files.map((f) => f.rel), ...found.nestedGit, ...found.badNames, ...found.absurd.map((a) => a.rel)]);
  const absurd = found.absurd.filter((a) => !ignored.has(a.rel));
  if (absurd.length > 0) {
    return { reason: 'unsupported-file', detail: `paths bakeoff will not carry: ${absurd.slice(0, 3).map((a) => `${quotedPath(a.rel.slice(0, 120))}${a.rel.length > 120 ? '…' : ''} (${a.why})`).join(', ')}${absurd.length > 3 ? ` and ${absurd.length - 3} more` : ''}`, paths: absurd.slice(0, 20).map((a) => a.rel) };
  }
  const nested = found.nestedGit.filter((p) => !ignored.has(p));
  if (nested.length > 0) {
    return { reason: 'unsupported-file', detail: `the change holds a nested git repository (${list(nested)}), which a patch cannot carry; remove its .git or leave it out with .gitignore`, paths: nested.slice(0, 20) };
  }
  const badNames = found.badNames.filter((p) => !ignored.has(p));
  if (badNames.length > 0) return { reason: 'unsupported-file', detail: `file names that are not UTF-8: ${list(badNames)}`, paths: badNames.slice(0, 20) };
  const counted = found.files.filter((f) => !ignored.has(f.rel)).sort((a, b) => b.bytes - a.bytes);
  if (counted.length > bounds.files) {
    return { reason: 'change-too-large', detail: `the change adds or changes ${counted.length} files, more than ${bounds.files} (a patch of that many files is not a change to review)` };
  }
  const bytes = counted.reduce((sum, f) => sum + f.bytes, 0);
  if (bytes <= options.maxBytes) return null;
  const largest = counted.slice(0, 3).map((f) => `${quotedPath(f.rel)} ${f.bytes} bytes`).join(', ');
  return {
    reason: 'change-too-large',
    detail: `the change holds ${bytes} bytes in ${counted.length} file(s), more than the limit of ${options.maxBytes} (controls.maxChangeMb); largest: ${largest}`,
    paths: counted.slice(0, 3).map((f) => f.rel),
  };
}

/** Errors of reading a folder by its path that the path itself causes (the agent's doing), not the machine. */
const PATH_ERRORS = new Set(['ENAMETOOLONG', 'ELOOP']);

async function walk(root: string, rel: string, found: Found, compareWith: string | null): Promise<void> {
  let dir: Dir;
  try {
    dir = await opendir(path.join(root, rel), { encoding: 'buffer' } as unknown as OpenDirOptions);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!PATH_ERRORS.has(code)) throw error;
    found.absurd.push({ rel, why: `cannot be read by its path: ${code}` });
    return;
  }
  for await (const entry of dir as AsyncIterable<Dirent<Buffer>>) {
    // leaving the loop closes the folder
    if (++found.entries > found.bounds.entries) return;
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
    if (entry.isDirectory()) {
      const depth = childRel.split('/').length;
      if (Buffer.byteLength(childRel) > found.bounds.pathBytes) found.absurd.push({ rel: childRel, why: `a path longer than ${found.bounds.pathBytes} bytes` });
      else if (depth > found.bounds.depth) found.absurd.push({ rel: childRel, why: `nested more than ${found.bounds.depth} folders deep` });
      else await walk(root, childRel, found, compareWith);
      if (found.entries > found.bounds.entries) return;
    } else if (Buffer.byteLength(childRel) > found.bounds.pathBytes) {
      found.absurd.push({ rel: childRel, why: `a path longer than ${found.bounds.pathBytes} bytes` });
    } else if (entry.isFile()) {
      const st = await lstat(path.join(root, childRel));
      if (compareWith !== null && (await sameAsPrepared(compareWith, childRel, st.size, st.mtimeMs))) continue;
      found.files.push({ rel: childRel, bytes: st.size });
    } else if (entry.isSymbolicLink() && (compareWith === null || !(await sameLinkAsPrepared(compareWith, root, childRel)))) {
      found.files.push({ rel: childRel, bytes: 0 });
    }
    // FIFOs, sockets and devices (overlay whiteouts among them) are never captured
  }
}

async function sameLinkAsPrepared(prepared: string, root: string, rel: string): Promise<boolean> {
  const [a, b] = await Promise.all([readlink(path.join(prepared, rel)).catch(() => null), readlink(path.join(root, rel)).catch(() => null)]);
  return a !== null && a === b;
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
