import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { list } from './compare-runs.js';
import { testIdFile } from './test-id-file.js';

export interface UncollectedHintOptions {
  /** The order whose hidden files are checked (its folder is `orders/<order>/hidden/`). */
  readonly order: number;
  /** That order's hidden files, relative to its hidden folder (the same paths in the repo). */
  readonly hiddenFiles: readonly string[];
  /** The test ids every test run of the admission so far reported. */
  readonly ids: Iterable<string>;
  /** The task's test command (task.yaml test.command). */
  readonly command: string;
}

/**
 * The likeliest cause of a run without results, or of an empty fail-to-pass set: the test
 * command does not collect a hidden file. Names the hidden files no test id belongs to and the
 * test command, as a clause to append to a reason (`; no test result came from …`), or '' when
 * every hidden file has results. Pure.
 */
export function uncollectedHint(options: UncollectedHintOptions): string {
  const reported = new Set([...options.ids].map(testIdFile));
  const silent = options.hiddenFiles.filter((file) => !reported.has(file)).map((file) => `orders/${options.order}/hidden/${file}`);
  if (silent.length === 0) return '';
  const one = silent.length === 1;
  return `; no test result came from the hidden file${one ? '' : 's'} ${list(silent)}: does the test command \`${options.command}\` collect ${one ? 'it' : 'them'}?`;
}

/** The regular files under a hidden folder, relative to it with `/`, sorted. */
export async function listHiddenFiles(hiddenDir: string): Promise<string[]> {
  const entries = await readdir(hiddenDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(hiddenDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}
