import { git } from './git.js';

/** What a stored patch touches. */
export interface PatchPaths {
  /** Repo-relative paths it adds, changes or deletes. */
  readonly paths: readonly string[];
  /** Of those, the ones whose change is binary (`GIT binary patch`: git found binary content). */
  readonly binary: readonly string[];
}

/**
 * Repo-relative paths a stored `git diff --binary` patch adds, changes or deletes — the same
 * list `captureChange` gave when the change was made (renames are never detected there, so
 * each side is its own path) — and which of them are binary. Read from the patch alone
 * (`git apply --numstat`, nothing is applied), run at the top of the prepared repo so no path
 * is filtered out. A patch git cannot parse touches nothing here; grading then finds it does
 * not apply.
 */
export async function patchPaths(preparedRepo: string, patch: string): Promise<PatchPaths> {
  if (patch.trim() === '') return { paths: [], binary: [] };
  let numstat: string;
  try {
    numstat = await git(['apply', '--numstat', '-z', '-'], { cwd: preparedRepo, input: patch });
  } catch {
    return { paths: [], binary: [] };
  }
  const paths: string[] = [];
  const binary: string[] = [];
  for (const record of numstat.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(record);
    if (!match) continue;
    paths.push(match[3]!);
    if (match[1] === '-') binary.push(match[3]!);
  }
  return { paths, binary };
}
