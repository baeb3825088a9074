import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { canonicalJson } from './hash.js';

/*
 * What a slow probe found (a CLI's version, a model catalog, the sandbox self-check), kept
 * between invocations beside the key it was found under. A probe is re-run when its key
 * changes: the key names everything the answer depends on (a binary's real path, size, mtime
 * and inode; a kernel release; a mount's options), so a cached answer is the answer the probe
 * would give now. One file per probe under `<cacheDir>/probes/`:
 *
 *   <cacheDir>/probes/<name>.json   {"schemaVersion": 1, "key": …, "value": …, "probedAt": ISO}
 *
 * A file that does not parse, or has another key, is a miss; writes are whole (temp + rename).
 */

/** Where probes are kept, and how the caller turns caching off (`null`: always probe). */
export interface ProbeCache {
  /**
   * The value cached under `name` when it was found under an equal `key`; else runs `probe`,
   * keeps what it returns when `keep(value)` (default: always), and returns it.
   */
  remember<T>(name: string, key: unknown, probe: () => Promise<T>, keep?: (value: T) => boolean): Promise<T>;
  /** The value cached under `name` when it was found under an equal `key`; else undefined. */
  recall<T>(name: string, key: unknown): T | undefined;
  /** Keeps `value` under `name` and `key` (replacing what was there). */
  keep(name: string, key: unknown, value: unknown): void;
  /** Drops what is cached under `name` (a sandbox that failed must be checked again). */
  forget(name: string): void;
}

const SCHEMA_VERSION = 1;

/** The probe cache in `<cacheDir>/probes`; never throws for a cache it cannot read or write (it probes instead). */
export function openProbeCache(cacheDir: string): ProbeCache {
  const dir = path.join(cacheDir, 'probes');
  const fileOf = (name: string): string => path.join(dir, `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
  const recall = <T>(name: string, key: unknown): T | undefined => {
    const held = readEntry(fileOf(name));
    return held !== null && canonicalJson(held.key) === canonicalJson(key) ? (held.value as T) : undefined;
  };
  const keep = (name: string, key: unknown, value: unknown): void => {
    writeEntry(dir, fileOf(name), { schemaVersion: SCHEMA_VERSION, key, value, probedAt: new Date().toISOString() });
  };
  return {
    recall,
    keep,
    async remember<T>(name: string, key: unknown, probe: () => Promise<T>, keepIt: (value: T) => boolean = () => true): Promise<T> {
      const held = recall<T>(name, key);
      if (held !== undefined) return held;
      const value = await probe();
      if (keepIt(value)) keep(name, key, value);
      return value;
    },
    forget(name: string): void {
      try {
        rmSync(fileOf(name), { force: true });
      } catch {
        // no cache folder: nothing to forget
      }
    },
  };
}

/** A cache that keeps nothing: every `remember` probes. */
export const NO_PROBE_CACHE: ProbeCache = { remember: (_name, _key, probe) => probe(), recall: () => undefined, keep: () => {}, forget: () => {} };

interface Entry {
  readonly schemaVersion: number;
  readonly key: unknown;
  readonly value: unknown;
  readonly probedAt: string;
}

function readEntry(file: string): Entry | null {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as Entry;
    return entry?.schemaVersion === SCHEMA_VERSION && 'value' in entry ? entry : null;
  } catch {
    return null;
  }
}

function writeEntry(dir: string, file: string, entry: Entry): void {
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, JSON.stringify(entry));
    renameSync(tmp, file);
  } catch {
    // a cache that cannot be written costs a probe next time, nothing else
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/** What identifies a file's contents without reading it: its real path, size, mtime, inode and change time; null when missing. */
export interface FileStamp {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

/** The stamp of `file` (symlinks followed to the real file), or null when it does not exist. */
export function fileStamp(file: string): FileStamp | null {
  try {
    const real = realpathSync(file);
    const s = statSync(real);
    return { path: real, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, ino: s.ino };
  } catch {
    return null;
  }
}
