import { git } from '../sandbox/git.js';

/**
 * Repo-relative paths a stored `git diff --binary` patch adds, changes or deletes — the same
 * list `captureChange` gave when the change was made (renames are never detected there, so
 * each side is its own path). Read from the patch alone (`git apply --numstat`, nothing is
 * applied), run at the top of the prepared repo so no path is filtered out. A patch git cannot
 * parse touches nothing here; grading then finds it does not apply.
 */
export async function patchPaths(preparedRepo: string, patch: string): Promise<string[]> {
  if (patch.trim() === '') return [];
  let numstat: string;
  try {
    numstat = await git(['apply', '--numstat', '-z', '-'], { cwd: preparedRepo, input: patch });
  } catch {
    return [];
  }
  const paths: string[] = [];
  for (const record of numstat.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(record);
    if (match) paths.push(match[3]!);
  }
  return paths;
}
