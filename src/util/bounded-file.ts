import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/*
 * Reading files that a run wrote (reports, logs, streams, artifacts). Whatever a run leaves
 * behind may be a FIFO (a plain open would hang), a symlink (to bakeoff's own /proc/self/environ),
 * a socket, or a sparse file of terabytes. So every such read opens without following links and
 * without blocking, accepts only a regular file, and never holds more than a stated number of
 * bytes; hashing streams in chunks.
 */

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CHUNK = 1 << 20;

export type BoundedRead =
  | { readonly kind: 'ok'; readonly text: string; readonly bytes: number; readonly truncated: boolean }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly why: string };

/** What a file is, in words, for a path that is not a regular file. */
export function describeFileType(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Reads a regular file as UTF-8, never through a symlink, never blocking on a FIFO, at most
 * `maxBytes`. Over the limit: `unreadable`, or with `truncate` the first `maxBytes` and
 * `truncated: true`.
 */
export async function readBoundedFile(file: string, maxBytes: number, options: { truncate?: boolean } = {}): Promise<BoundedRead> {
  let handle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'unreadable', why: 'it is a symbolic link' };
    return { kind: 'unreadable', why: `it cannot be opened (${code ?? (error as Error).message})` };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'unreadable', why: `it is ${describeFileType(stat)}` };
    if (stat.size > maxBytes && !options.truncate) {
      return { kind: 'unreadable', why: `it holds ${stat.size} bytes, more than the limit of ${maxBytes}` };
    }
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes));
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { kind: 'ok', text: buffer.subarray(0, filled).toString('utf8'), bytes: stat.size, truncated: stat.size > maxBytes };
  } finally {
    await handle.close();
  }
}

/** sha256 and size of a regular file, read in chunks (synchronous: the store's transaction is). */
export function hashFileSync(file: string): { sha256: string; bytes: number } {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file}: ${describeFileType(stat)}, not a regular file`);
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(CHUNK);
    let bytes = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, bytes);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      bytes += n;
    }
    return { sha256: hash.digest('hex'), bytes };
  } finally {
    closeSync(fd);
  }
}
