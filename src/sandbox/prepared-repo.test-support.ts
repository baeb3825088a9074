import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { initSingleCommit } from './git.js';

/**
 * A new temp folder `root` holding `root/prepared`, a prepared repo as a bake makes one: `files`
 * (path → text) in its single commit, and `exclude` in its `.git/info/exclude` when given (what
 * setup wrote, left out). Test support, left out of the build.
 */
export async function preparedRepo(prefix: string, files: Readonly<Record<string, string>>, exclude?: string): Promise<{ root: string; prepared: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  const prepared = path.join(root, 'prepared');
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(prepared, file)), { recursive: true });
    await writeFile(path.join(prepared, file), text);
  }
  await initSingleCommit(prepared, 'task t');
  if (exclude !== undefined) await writeFile(path.join(prepared, '.git', 'info', 'exclude'), exclude);
  return { root, prepared };
}
