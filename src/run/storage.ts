import { statfsSync } from 'node:fs';
import path from 'node:path';
import { DISK_FULL_CODES, errorCode } from '../errors.js';

/**
 * True when `error` is the results folder's disk failing, not the run: SQLite's full disk or I/O
 * error, an I/O error or a read-only file system under the folder, or a full disk while the results folder's own file
 * system has next to no space left (an agent fills only its own quota'd workspace, whose
 * errors are its failure, and can never fill the results disk: its output is capped).
 */
export function isStorageFailure(error: unknown, resultsDir: string): boolean {
  const code = errorCode(error);
  if (code === null) return false;
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) return true;
  if (code === 'EROFS' || code === 'EIO') {
    const at = (error as { path?: unknown }).path;
    return typeof at === 'string' && at.startsWith(resultsDir + path.sep);
  }
  if (!DISK_FULL_CODES.has(code)) return false;
  return diskLow(resultsDir);
}

/** The file system of `dir` has next to no space left (or cannot be asked). */
export function diskLow(dir: string): boolean {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize < LOW_SPACE_BYTES;
  } catch {
    return true;
  }
}

/**
 * A grading step that failed on the change while the artifacts' disk is full failed because of
 * the disk, not the change (grading the unchanged repo writes elsewhere and would pass): thrown
 * as the disk's, so the bake stops and resuming redoes the run instead of recording a grading-error.
 */
export function failIfDiskFull(artifactsDir: string, failure: string): void {
  if (!diskLow(artifactsDir)) return;
  throw Object.assign(new Error(`no space left on the disk of ${artifactsDir} while grading (${failure})`), { code: 'ENOSPC', path: artifactsDir });
}

/** Free space under which a full-disk error is the results disk's (4 MiB). */
const LOW_SPACE_BYTES = 4 * 1024 * 1024;
