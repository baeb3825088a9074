import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { dieWithParent } from '../util/die-with-parent.js';
import { InfraError } from '../errors.js';

/*
 * Git is run only with configuration bakeoff controls. The agent owns its workspace's .git
 * (config, hooks, fsmonitor, attributes filters), so every command here points GIT_DIR at the
 * harness-owned .git of the prepared repo, keeps its index and new objects in a private temp
 * folder, and ignores system and global config. Nothing the agent wrote is ever executed.
 */

const SAFE_CONFIG = [
  '-c', 'core.fsmonitor=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.autocrlf=false',
  '-c', 'core.safecrlf=false',
  '-c', 'core.quotePath=false',
  '-c', 'safe.directory=*',
  '-c', 'diff.noprefix=false',
  '-c', 'diff.renames=false',
];

const FIXED_IDENTITY = {
  GIT_AUTHOR_NAME: 'bakeoff',
  GIT_AUTHOR_EMAIL: 'bakeoff@localhost',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00Z',
  GIT_COMMITTER_NAME: 'bakeoff',
  GIT_COMMITTER_EMAIL: 'bakeoff@localhost',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00Z',
};

/** Runs git with safe config; throws InfraError with git's message on failure. */
export async function git(args: readonly string[], options: { cwd: string; env?: Record<string, string>; input?: string }): Promise<string> {
  const [file, ...argv] = dieWithParent(['git', ...SAFE_CONFIG, ...args]);
  const result = await execa(file!, argv, {
    cwd: options.cwd,
    env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', ...FIXED_IDENTITY, ...options.env },
    input: options.input,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (result.exitCode !== 0) {
    throw new InfraError(`git ${args.join(' ')} failed in ${options.cwd}: ${String(result.stderr).trim()}`);
  }
  return String(result.stdout);
}

/** Creates a repo with exactly one commit holding every file of `dir`. */
export async function initSingleCommit(dir: string, message: string): Promise<void> {
  await git(['init', '-q', '-b', 'main'], { cwd: dir });
  await git(['add', '-A'], { cwd: dir });
  await git(['commit', '-q', '--no-verify', '--allow-empty', '-m', message], { cwd: dir });
}

/** The agent's change to a workspace, relative to the prepared repo's single commit. */
export interface Change {
  /** `git diff --binary` text; empty when nothing changed. */
  readonly patch: string;
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** Repo-relative paths of every added, changed or deleted file. */
  readonly paths: readonly string[];
}

/**
 * Diffs `workspace` against the prepared repo's commit, leaving out setup outputs (the
 * prepared repo's info/exclude) and never touching the workspace's own .git.
 */
export async function captureChange(preparedRepo: string, workspace: string): Promise<Change> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-git-'));
  try {
    const gitDir = path.join(preparedRepo, '.git');
    const env = {
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workspace,
      GIT_INDEX_FILE: path.join(tmp, 'index'),
      GIT_OBJECT_DIRECTORY: path.join(tmp, 'objects'),
      GIT_ALTERNATE_OBJECT_DIRECTORIES: path.join(gitDir, 'objects'),
    };
    await mkdir(env.GIT_OBJECT_DIRECTORY);
    await git(['read-tree', 'HEAD'], { cwd: workspace, env });
    await git(['add', '-A', '--', '.'], { cwd: workspace, env });
    const patch = await git(['diff', '--cached', '--binary', '--full-index', 'HEAD'], { cwd: workspace, env });
    const numstat = await git(['diff', '--cached', '--numstat', '-z', 'HEAD'], { cwd: workspace, env });
    return { patch, ...parseNumstat(numstat) };
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Applies a `git diff --binary` patch to `dir` (a workspace made from a prepared repo whose .git
 * bakeoff wrote); returns git's complaint when it does not apply.
 */
export async function applyPatch(dir: string, patch: string): Promise<{ ok: true } | { ok: false; error: string }> {
  if (patch.trim() === '') return { ok: true };
  try {
    await git(['apply', '--binary', '--whitespace=nowarn', '-'], {
      cwd: dir,
      input: patch,
    });
    return { ok: true };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function parseNumstat(z: string): { linesAdded: number; linesRemoved: number; paths: string[] } {
  let linesAdded = 0;
  let linesRemoved = 0;
  const paths: string[] = [];
  for (const record of z.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(record);
    if (!match) continue;
    if (match[1] !== '-') linesAdded += Number(match[1]);
    if (match[2] !== '-') linesRemoved += Number(match[2]);
    paths.push(match[3]!);
  }
  return { linesAdded, linesRemoved, paths };
}
