import { createHash } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { hashFileSync } from '../util/index.js';

/** One file of a run's artifacts folder, as recorded when the run was stored. */
export interface ArtifactDigest {
  /** Path relative to the run's artifacts folder, with `/` separators. */
  readonly path: string;
  /** Hex sha256 of the file's bytes (of the link target, for a symlink). */
  readonly sha256: string;
  /** Size in bytes of what was hashed. */
  readonly bytes: number;
}

/** How the artifacts on disk differ from the recorded ones, one entry per path. */
export interface ArtifactMismatch {
  readonly path: string;
  /** `changed`: other bytes; `missing`: recorded, gone; `extra`: on disk, never recorded. */
  readonly change: 'changed' | 'missing' | 'extra';
}

/**
 * Digests of every regular file and symlink under `dir` (nothing is skipped, symlinks are never
 * followed; other file types cannot hold artifacts and are left out), sorted by path in byte
 * order. Synchronous because `saveRun` is; files are hashed in chunks, so an artifact of any size
 * is hashed without holding it in memory.
 * A missing `dir` has no artifacts.
 */
export function digestArtifacts(dir: string): ArtifactDigest[] {
  const out: ArtifactDigest[] = [];
  const walk = (rel: string): void => {
    let entries;
    try {
      entries = readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch (error) {
      if (rel === '' && (error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dir, childRel);
      if (entry.isDirectory()) walk(childRel);
      else if (entry.isSymbolicLink()) out.push(digestOf(childRel, Buffer.from(readlinkSync(full))));
      else if (entry.isFile()) out.push({ path: childRel, ...hashFileSync(full) });
    }
  };
  walk('');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Compares recorded digests with fresh ones. Pure. A file counts as changed when its hash or
 * its size differs; the result is sorted by path.
 */
export function compareArtifactDigests(recorded: readonly ArtifactDigest[], actual: readonly ArtifactDigest[]): ArtifactMismatch[] {
  const now = new Map(actual.map((d) => [d.path, d]));
  const before = new Map(recorded.map((d) => [d.path, d]));
  const out: ArtifactMismatch[] = [];
  for (const d of recorded) {
    const a = now.get(d.path);
    if (!a) out.push({ path: d.path, change: 'missing' });
    else if (a.sha256 !== d.sha256 || a.bytes !== d.bytes) out.push({ path: d.path, change: 'changed' });
  }
  for (const a of actual) if (!before.has(a.path)) out.push({ path: a.path, change: 'extra' });
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function digestOf(rel: string, bytes: Buffer): ArtifactDigest {
  return { path: rel, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
