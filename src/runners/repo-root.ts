import path from 'node:path';
import { readReportFile } from './read-report-file.js';
import { quoteShellArg } from '../util/index.js';

/**
 * Report files name test files by absolute path as the test command saw them. Inside a sandbox
 * the repo may be mounted elsewhere than `repoDir` on the host, so the command also records its
 * working directory (the repo root) in `<reportDir>/root.txt`: `$PWD`, then the physical path.
 */
const ROOT_FILE = 'root.txt';

/** Shell snippet, run first from the repo root, that records the root for `readRepoRoots`. */
export function recordRepoRoot(reportDir: string): string {
  return `{ pwd; pwd -P; } > ${quoteShellArg(path.join(reportDir, ROOT_FILE))}`;
}

/** The repo roots a report's paths may start with: the recorded ones, then `repoDir`. */
export async function readRepoRoots(options: {
  readonly reportDir: string;
  readonly repoDir: string;
}): Promise<string[]> {
  const recorded = (await readReportFile(path.join(options.reportDir, ROOT_FILE))) ?? '';
  const roots = [...recorded.split('\n'), options.repoDir].map((r) => r.trim()).filter((r) => r !== '');
  return [...new Set(roots)];
}

/**
 * `file` relative to the first root that contains it, with `/` separators; unchanged when it is
 * already relative or lies outside every root.
 */
export function toRepoRelativePath(file: string, roots: readonly string[]): string {
  if (!path.isAbsolute(file)) return file.split(path.sep).join('/');
  for (const root of roots) {
    const rel = path.relative(root, file);
    const outside = rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
    if (!outside) return rel.split(path.sep).join('/');
  }
  return file;
}
