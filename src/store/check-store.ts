import { readdirSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { isDamage, UserError } from '../errors.js';
import { sha256 } from '../util/hash.js';
import { fileStamp, type ProbeCache } from '../util/probe-cache.js';

/*
 * A results folder checks itself when it is opened, so that damage is refused with a sentence
 * instead of being read as "0 mismatches" or "no finished runs yet" — or, worse, written over.
 */

/** The refusal for a damaged database: what SQLite said and what the operator can do. */
export function damagedDatabase(dbPath: string, said: string): UserError {
  return new UserError(
    `${dbPath}: the results database is damaged (SQLite: ${said}); nothing was read from it or written to it. ` +
      'Restore the folder from a backup, or bake into a new folder (--out): the run folders under runs/ keep each run\'s artifacts',
  );
}


/*
 * quick_check reads every page: seconds for 100,000 runs, on every open. It is skipped when the
 * database is byte for byte as it was when last found intact — checked, or closed by the
 * bakeoff that wrote it (a store opened intact that only SQLite wrote to stays intact) — which
 * the stamps of its file and its write-ahead log prove: a write changes size, mtime or ctime
 * (which nothing but the kernel sets). The stamps are kept in the cache folder (the probe
 * cache), never in the results folder, which `report` only reads.
 */

/** The probe cache entry that remembers a database found intact. */
function intactName(dbPath: string): string {
  return `store-intact-${sha256(dbPath).slice(0, 32)}`;
}

/** What proves the database unchanged: the stamps of the file and of its write-ahead log. */
function stampsOf(dbPath: string): unknown {
  return { db: fileStamp(dbPath), wal: fileStamp(`${dbPath}-wal`) };
}

/** The database's stamps now, and whether it was found intact as it is (`intact` absent: never known). */
export function knownIntact(dbPath: string, intact: ProbeCache | undefined): { readonly stamps: unknown; readonly known: boolean } {
  const stamps = stampsOf(dbPath);
  return { stamps, known: intact?.recall<boolean>(intactName(dbPath), stamps) === true };
}

/** Remembers the database as intact under `stamps` (default: as it is now). */
export function rememberIntact(dbPath: string, intact: ProbeCache | undefined, stamps: unknown = stampsOf(dbPath)): void {
  intact?.keep(intactName(dbPath), stamps, true);
}

/**
 * Refuses a database SQLite cannot vouch for: `PRAGMA quick_check` walks every page and index
 * and must answer `ok`.
 */
export function requireIntact(db: Database.Database, dbPath: string): void {
  let answers: string[];
  try {
    answers = (db.pragma('quick_check') as { quick_check: string }[]).map((row) => row.quick_check);
  } catch (error) {
    if (isDamage(error)) throw damagedDatabase(dbPath, (error as Error).message);
    throw error;
  }
  if (answers.length !== 1 || answers[0] !== 'ok') throw damagedDatabase(dbPath, answers.slice(0, 3).join('; ').replace(/\s*\n\s*/g, ' '));
}

/**
 * Refuses a database with no schema (new, emptied or replaced) beside run folders: the runs it
 * recorded are lost, and baking on would silently redo and overwrite their artifacts.
 */
export function refuseLostDatabase(dbPath: string, runsDir: string): void {
  let folders: string[];
  try {
    folders = readdirSync(runsDir).filter((name) => !name.startsWith('.'));
  } catch {
    return;
  }
  if (folders.length === 0) return;
  throw new UserError(
    `${dbPath}: the results database is empty, but ${runsDir} holds ${folders.length} run folder(s) (e.g. ${folders[0]}): ` +
      'the database that recorded them was lost or replaced, and baking on would overwrite them. ' +
      'Restore bakeoff.db from a backup, or bake into a new folder (--out)',
  );
}
