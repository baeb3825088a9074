import { constants } from 'node:fs';
import { chown, mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { orderFile } from '../../store/index.js';
import type { HarnessSetup } from '../harnesses/types.js';

/** Most of a file the sandbox wrote that the host reads back (a CLI's stream, a network trace). */
const MAX_READ_BYTES = 64 * 1024 * 1024;

/** The host-side files of one harness session, each shown to the sandbox at its own path. */
export interface SessionFiles {
  /** HOME's starting content (read-only; copied into the private HOME first). */
  readonly seedDir: string;
  /** The CLI's stdin (read-only). */
  readonly stdin: string;
  /** Where the CLI's stdout goes (writable: the file itself is bound, never its folder). */
  readonly stream: string;
  /** Where strace writes with --trace-network (writable file). */
  readonly trace: string;
}

/**
 * Writes a session's files. The writable ones are created here, owned by the sandbox's uid, and
 * bound one by one: the agent can write into them but cannot replace them (with a symlink to
 * bakeoff's own /proc/self/environ, say), since a bind-mounted file cannot be removed or renamed.
 */
export async function writeSessionFiles(dir: string, setup: HarnessSetup, owner: { uid: number; gid: number } | null): Promise<SessionFiles> {
  const files: SessionFiles = {
    seedDir: path.join(dir, 'home-seed'),
    stdin: path.join(dir, 'stdin.txt'),
    stream: orderFile(dir, 'stream'),
    trace: path.join(dir, 'network.trace'),
  };
  await mkdir(files.seedDir, { recursive: true, mode: 0o755 });
  for (const [rel, content] of Object.entries(setup.homeFiles)) {
    const file = path.join(files.seedDir, rel);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o755 });
    await writeFile(file, content, { mode: 0o644 });
  }
  await writeFile(files.stdin, setup.stdin ?? '', { mode: 0o644 });
  for (const file of [files.stream, files.trace]) {
    await writeFile(file, '', { mode: 0o600 });
    if (owner) await chown(file, owner.uid, owner.gid);
  }
  return files;
}

/**
 * Reads a file the sandbox wrote: never through a symlink, only a regular file, at most
 * 64 MiB (the rest is cut, and said so). Null when it is missing or not a regular file.
 */
export async function readSandboxFile(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return null;
    const length = Math.min(stat.size, MAX_READ_BYTES);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return stat.size > MAX_READ_BYTES ? `${text}\n[bakeoff: cut at ${MAX_READ_BYTES} of ${stat.size} bytes]\n` : text;
  } finally {
    await handle.close();
  }
}
