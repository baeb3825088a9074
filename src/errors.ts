/**
 * Error classes with stable codes. `UserError`s are the user's to fix (exit 2, message only);
 * `InfraError`s mean the machine or a tool bakeoff needs failed (exit 3); anything else is a
 * bug in bakeoff (stack + "please report").
 */

/** One problem found in an input file: where, what was expected, what arrived. */
export interface InputIssue {
  readonly file: string;
  /** Dotted path of the field, e.g. `controls.runsPerTask`; empty for the whole file. */
  readonly field: string;
  readonly expected: string;
  readonly received: string;
}

export class UserError extends Error {
  readonly code: string = 'E_USER';
  override readonly name: string = 'UserError';
}

/** Input files that do not match their schema; carries every issue, not just the first. */
export class InputError extends UserError {
  override readonly code = 'E_INPUT';
  override readonly name = 'InputError';
  constructor(readonly issues: readonly InputIssue[]) {
    super(issues.map(formatIssue).join('\n'));
  }
}

export class InfraError extends Error {
  readonly code: string = 'E_INFRA';
  override readonly name: string = 'InfraError';
}

export function formatIssue(issue: InputIssue): string {
  const where = issue.field ? `${issue.file}: ${issue.field}` : issue.file;
  return `${where}: expected ${issue.expected}, received ${issue.received}`;
}

/**
 * A results folder another process is using (or was, on a host bakeoff cannot check from
 * here). The operator's to resolve — wait, stop the holder, or choose another folder — so it
 * is a UserError (exit 2); nothing on this machine broke.
 */
export class ResultsBusyError extends UserError {
  override readonly code = 'E_RESULTS_BUSY';
  override readonly name = 'ResultsBusyError';
}

/** Work refused because bakeoff is stopping (SIGINT, SIGTERM): nothing new is recorded. */
export class StoppingError extends Error {
  readonly code = 'E_STOPPING';
  override readonly name = 'StoppingError';
}

/** The `code` of a Node or SQLite error (`ENOSPC`, `SQLITE_FULL`, …), else null. */
export function errorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** The codes of a full disk or quota: Node's and SQLite's. */
export const DISK_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** The codes SQLite raises on a damaged database file. */
const DAMAGED_CODES: ReadonlySet<string> = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_INDEX', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_VTAB']);

/** True for an error SQLite raises on a damaged file. */
export function isDamage(error: unknown): boolean {
  const code = errorCode(error);
  return code !== null && DAMAGED_CODES.has(code);
}
