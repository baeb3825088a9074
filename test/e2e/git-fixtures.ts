import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { tempDir } from './helpers.js';

/** Files by path relative to a folder. */
export type Files = Record<string, string | Buffer>;

export async function writeFiles(dir: string, files: Files): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), content);
  }
}

/** git with no user or global configuration. */
export const git = (dir: string, ...args: string[]) =>
  execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, env: { GIT_CONFIG_GLOBAL: '/dev/null' } });

/** A repository in `dir` (made when absent) whose history is one commit per entry; returns the shas. */
export async function commitAll(dir: string, commits: readonly { message: string; files: Files }[]): Promise<string[]> {
  await git(dir, 'init', '-q', '-b', 'main');
  const shas: string[] = [];
  for (const c of commits) {
    await writeFiles(dir, c.files);
    await git(dir, 'add', '-A');
    await git(dir, 'commit', '-q', '--allow-empty', '-m', c.message);
    shas.push((await git(dir, 'rev-parse', 'HEAD')).stdout.trim());
  }
  return shas;
}

/** `git diff` between two commits of a repository (the patch text). */
export async function diffOf(dir: string, from: string, to: string, paths: readonly string[]): Promise<string> {
  return (await git(dir, 'diff', '--no-color', from, to, '--', ...paths)).stdout + '\n';
}

export { tempDir };
