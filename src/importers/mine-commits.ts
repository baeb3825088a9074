import { UserError } from '../errors.js';
import { openGitRepo } from './git-repo.js';
import { languageOfPath } from './infer-task.js';
import { CommitRefused, inspectCommit } from './task-from-commit.js';

export interface MineOptions {
  readonly repo: string;
  /** A revision range (`A..B`) or a revision; default HEAD. */
  readonly range?: string;
  /** Commits looked at, newest first along first parents (default 100). */
  readonly limit?: number;
  readonly tests?: readonly string[];
  /** The most lines (added + removed, tests included) a candidate may change (default 400). */
  readonly maxLines?: number;
  /** The most files a candidate may change (default 12). */
  readonly maxFiles?: number;
}

/** One commit looked at: a candidate, or why not. */
export interface MinedCommit {
  readonly sha: string;
  readonly subject: string;
  readonly files: number;
  readonly lines: number;
  /** The code's languages by extension (`js`, `ts`, `python`, `rust`; other files do not count). */
  readonly languages: readonly string[];
  /** Null for a candidate. */
  readonly skipped: string | null;
}

/**
 * The candidate commits of a repository for `task from-commit`, with R2E-style filters: not a
 * merge, changes tests and code (by the test-file rule), no binary file, no deleted test, no
 * submodule or Git LFS pointer in the parent's tree or the changed files, small
 * (at most `maxFiles` files and `maxLines` lines), and code in one language (other files, such
 * as docs and lockfiles, do not count). Reads only.
 */
export async function mineCommits(options: MineOptions): Promise<MinedCommit[]> {
  const limit = options.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1) throw new UserError(`--limit ${limit}: a whole number of commits, at least 1`);
  const git = await openGitRepo(options.repo);
  const maxLines = options.maxLines ?? 400;
  const maxFiles = options.maxFiles ?? 12;
  const out: MinedCommit[] = [];
  const lfsSeen = new Map<string, boolean>();
  for (const { sha, subject } of await git.history(options.range ?? 'HEAD', limit)) {
    let skipped: string | null = null;
    let files = 0;
    let lines = 0;
    let languages: string[] = [];
    try {
      const { tests, code } = await inspectCommit(git, sha, options.tests, lfsSeen);
      files = tests.length + code.length;
      lines = [...tests, ...code].reduce((n, c) => n + c.added + c.removed, 0);
      languages = [...new Set(code.map((c) => languageOfPath(c.path)).filter((l) => l !== null))].sort();
      if (files > maxFiles) skipped = `${files} files (at most ${maxFiles})`;
      else if (lines > maxLines) skipped = `${lines} lines (at most ${maxLines})`;
      else if (languages.length === 0) skipped = 'no code in js, ts, python or rust';
      else if (languages.length > 1) skipped = `code in ${languages.join(' and ')}`;
    } catch (error) {
      if (!(error instanceof CommitRefused)) throw error;
      skipped = error.brief;
    }
    out.push({ sha, subject, files, lines, languages, skipped });
  }
  return out;
}
