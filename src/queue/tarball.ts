import { access, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { x, type ReadEntry } from 'tar';
import { sha256 } from '../util/index.js';

/**
 * A folder as a gzipped tarball (the system's GNU tar: owners and times dropped, names sorted,
 * so the same folder packs the same way) — how suite bundles and run artifacts cross the fleet.
 */
export async function packFolder(dir: string): Promise<{ readonly bytes: Buffer; readonly sha256: string }> {
  const { stdout } = await execa('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-C', dir, '-czf', '-', '.'], {
    encoding: 'buffer',
    maxBuffer: 2 * 1024 * 1024 * 1024,
  });
  const bytes = Buffer.from(stdout);
  return { bytes, sha256: sha256(bytes) };
}

/**
 * Unpacks a tarball of `packFolder` into `dir` (made fresh, atomically: a half-unpacked folder
 * is never left under its name). With `keep`, a `dir` that already exists is left as it is
 * (content-addressed folders: another process unpacked the same bytes and may be using them).
 */
export async function unpackFolder(bytes: Buffer, dir: string, keep = false): Promise<void> {
  if (keep && (await exists(dir))) return;
  const tmp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    await extract(bytes, tmp);
    if (!keep) await rm(dir, { recursive: true, force: true });
    await mkdir(path.dirname(dir), { recursive: true });
    await rename(tmp, dir);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    // another process's rename won the race: its folder holds the same bytes
    if (keep && (await exists(dir))) return;
    throw error;
  }
}

/**
 * In process (node-tar, not a spawned tar: the coordinator unpacks every run's artifacts, and a
 * process per run was a third of its time per run): files, folders and symlinks only, owned by
 * whoever unpacks, permission bits only (never setuid), nothing outside `dir`.
 */
async function extract(bytes: Buffer, dir: string): Promise<void> {
  const refused: string[] = [];
  const unpack = x({
    cwd: dir,
    preserveOwner: false,
    strict: true,
    filter: (name, entry) => {
      const e = entry as ReadEntry;
      if (e.type !== 'File' && e.type !== 'Directory' && e.type !== 'SymbolicLink') {
        refused.push(`${name} (${e.type})`);
        return false;
      }
      if (e.mode !== undefined) e.mode &= 0o777;
      return true;
    },
  });
  await new Promise<void>((resolve, reject) => {
    unpack.on('error', reject);
    unpack.on('close', () => resolve());
    unpack.end(bytes);
  });
  if (refused.length > 0) throw new Error(`the tarball holds entries bakeoff never packs: ${refused.slice(0, 5).join(', ')}`);
}

async function exists(dir: string): Promise<boolean> {
  return access(dir).then(
    () => true,
    () => false,
  );
}
