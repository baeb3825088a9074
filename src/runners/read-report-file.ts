import path from 'node:path';
import { readBoundedFile, escapeControl } from '../util/index.js';
import type { ParsedReport } from './types.js';

/**
 * Largest report file read, whatever the report folder allows (it is a tmpfs of the controls'
 * `outputMb` when bakeoff runs as root): well under the longest string V8 can hold.
 */
export const MAX_REPORT_BYTES = 256 * 1024 * 1024;

/** A report file that is there but cannot be a report: a FIFO, a symlink, a folder, too big. */
export class ReportUnreadableError extends Error {
  override readonly name = 'ReportUnreadableError';
}

/**
 * Reads a report file as UTF-8, or returns undefined when the runner never wrote it. Never
 * follows a symlink or blocks on a FIFO; throws ReportUnreadableError for anything but a
 * regular file of at most MAX_REPORT_BYTES.
 */
export async function readReportFile(filePath: string): Promise<string | undefined> {
  const read = await readBoundedFile(filePath, MAX_REPORT_BYTES);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'unreadable') throw new ReportUnreadableError(`report file ${escapeControl(path.basename(filePath))} cannot be read: ${read.why}`);
  return read.text;
}

/**
 * Reads `<reportDir>/<reportFile>` and parses it; a report the runner never wrote is the
 * report's one problem, `<what> <reportFile> is missing`.
 */
export async function parseReportFile(
  reportDir: string,
  { reportFile, what }: { readonly reportFile: string; readonly what: string },
  parse: (text: string) => ParsedReport | Promise<ParsedReport>,
): Promise<ParsedReport> {
  const text = await readReportFile(path.join(reportDir, reportFile));
  if (text === undefined) return { tests: [], problems: [`${what} ${reportFile} is missing`] };
  return parse(text);
}
