import { DISK_FULL_CODES, errorCode, isDamage } from '../errors.js';
import { invokedAs } from './stop-on-signals.js';

/**
 * The sentence for an error the environment caused that reached the CLI as a plain Node or
 * SQLite error (no bakeoff class): a full disk, a read-only or forbidden path, too many open
 * files, a damaged database. Null for anything else, which stays a bug of bakeoff's. Nothing
 * finished is lost in any of these cases (each run is stored whole or not at all), so the
 * sentence says how to go on.
 */
export function explainEnvironmentError(error: unknown, command: string | null): string | null {
  const code = errorCode(error);
  if (code === null) return null;
  const where = typeof (error as { path?: unknown }).path === 'string' ? ` (${(error as { path: string }).path})` : '';
  const again = command ? `, then run the same \`${invokedAs()} ${command}\` again: every finished run is kept and the rest resumes` : ', then run the same command again';
  if (DISK_FULL_CODES.has(code)) return `the disk is full${where} (${code}): free some space${again}`;
  if (isDamage(error)) return `a results database is damaged (SQLite: ${(error as Error).message}): restore it from a backup, or bake into a new folder (--out)`;
  switch (code) {
    case 'EROFS':
      return `a file system bakeoff must write to is read-only${where} (${code}): choose a writable folder (--out)`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied${where} (${code}): bakeoff needs to write there (run as root, see \`bakeoff doctor\`), or choose another folder`;
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${code}): raise the limit (ulimit -n) or lower --concurrency${again}`;
    case 'SQLITE_IOERR':
    case 'EIO':
      return `the disk reported an I/O error${where} (${code}): check the disk${again}`;
    default:
      return null;
  }
}
