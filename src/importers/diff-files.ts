import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { InfraError } from '../errors.js';
import { dieWithParent } from '../util/index.js';
import { SAFE_CONFIG, SAFE_ENV } from './git-repo.js';

/**
 * `git diff --binary` from one set of files to another (paths relative to a repo root; a path
 * absent from `after` is left as it is): the bytes of a gold patch for `git apply`. Made in a
 * scratch repository with hooks and config off.
 */
export async function diffFiles(before: ReadonlyMap<string, Buffer | string>, after: ReadonlyMap<string, Buffer | string>): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-diff-'));
  const git = async (...args: string[]): Promise<Buffer> => {
    const [file, ...argv] = dieWithParent(['git', ...SAFE_CONFIG, ...args]);
    const r = await execa(file!, argv, { cwd: dir, env: { ...SAFE_ENV, GIT_CEILING_DIRECTORIES: path.dirname(dir) }, encoding: 'buffer', stripFinalNewline: false, reject: false });
    if (r.exitCode !== 0) throw new InfraError(`git ${args[0]} in ${dir} failed: ${Buffer.from(r.stderr).toString('utf8').trim()}`);
    return Buffer.from(r.stdout);
  };
  const put = async (files: ReadonlyMap<string, Buffer | string>): Promise<void> => {
    for (const [rel, content] of files) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), content);
    }
  };
  try {
    await git('init', '-q');
    await put(before);
    await git('add', '-A');
    await put(after);
    await git('add', '-A', '--intent-to-add');
    return await git('diff', '--binary', '--no-color', '--no-ext-diff', '--no-textconv', '--full-index');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
