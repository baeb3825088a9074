import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.js';
import { dieWithParent } from '../util/index.js';
import { SAFE_CONFIG, SAFE_ENV } from './git-repo.js';

/** What a patch does to one path. */
export interface PatchedPath {
  readonly path: string;
  readonly deleted: boolean;
}

/**
 * The files a unified diff touches and their post-images, from the pre-images given:
 * `git apply` in a scratch folder holding only those files (outside any repository, hooks and
 * config off). `where` names the patch in errors ("instance x: test_patch"). Paths outside the
 * tree and patches that do not apply are refused with git's words.
 */
export async function applyPatchTo(patch: string, preImage: (file: string) => Buffer | undefined, where: string): Promise<{ paths: PatchedPath[]; post: Map<string, Buffer> }> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-apply-'));
  try {
    const patchFile = path.join(scratch, 'diff.patch');
    const tree = path.join(scratch, 't');
    await mkdir(tree);
    await writeFile(patchFile, patch.endsWith('\n') ? patch : `${patch}\n`);
    const git = async (args: string[]): Promise<string> => {
      const [file, ...argv] = dieWithParent(['git', ...SAFE_CONFIG, ...args]);
      const r = await execa(file!, argv, { cwd: tree, env: { ...SAFE_ENV, GIT_CEILING_DIRECTORIES: scratch }, reject: false });
      if (r.exitCode !== 0) throw new UserError(`${where}: does not apply (${r.stderr.trim() || `git ${args[0]} failed`})`);
      return r.stdout;
    };
    const paths = parseSummary(await git(['apply', '--numstat', '--summary', patchFile]));
    if (paths.length === 0) throw new UserError(`${where}: expected a unified diff (git diff format), received one that changes no file`);
    for (const p of paths) {
      const content = preImage(p.path);
      if (content === undefined) continue;
      await mkdir(path.dirname(path.join(tree, p.path)), { recursive: true });
      await writeFile(path.join(tree, p.path), content);
    }
    await git(['apply', '--whitespace=nowarn', patchFile]);
    const post = new Map<string, Buffer>();
    for (const p of paths) if (!p.deleted) post.set(p.path, await readFile(path.join(tree, p.path)));
    return { paths, post };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function parseSummary(out: string): PatchedPath[] {
  const deleted = new Set<string>();
  const paths: string[] = [];
  for (const line of out.split('\n')) {
    const stat = /^(?:-|\d+)\t(?:-|\d+)\t(.+)$/.exec(line);
    if (stat) paths.push(stat[1]!);
    const del = /^ delete mode \d+ (.+)$/.exec(line);
    if (del) deleted.add(del[1]!);
  }
  return paths.map((p) => ({ path: p, deleted: deleted.has(p) }));
}
