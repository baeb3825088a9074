import { lstat, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { dieWithParent } from '../util/index.js';
import { InfraError } from '../errors.js';
import { linesOfDiff, linesOfNames, parseRawDiff } from './review-lines.js';

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

/** Runs git with safe config; throws InfraError with git's message on failure (an exit status not 0 or in `okExitCodes`). */
export async function git(
  args: readonly string[],
  options: { cwd: string; env?: Readonly<Record<string, string>>; input?: string; okExitCodes?: readonly number[] },
): Promise<string> {
  const [file, ...argv] = dieWithParent(['git', ...SAFE_CONFIG, ...args]);
  // loaded with the first git command, not with the module: commands that run none never load it
  const { execa } = await import('execa');
  const result = await execa(file!, argv, {
    cwd: options.cwd,
    env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0', ...FIXED_IDENTITY, ...options.env },
    input: options.input,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
  });
  if (result.exitCode !== 0 && !(options.okExitCodes ?? []).includes(result.exitCode ?? -1)) {
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
  /**
   * Lines added / removed as a reviewer must read them (review-lines.ts): every file as text,
   * whatever its attributes say; every line terminator a graded language honours; a line wider
   * than the screen counted per screen; names of added files and folders, link targets and mode
   * changes counted too (as added).
   */
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** git's plain count beside it (`--numstat`: lines between LFs, every file as text), for comparison. */
  readonly plainLinesAdded: number;
  readonly plainLinesRemoved: number;
  /** Repo-relative paths of every added, changed or deleted file. */
  readonly paths: readonly string[];
  /**
   * Added or changed files whose content is binary: a NUL byte in the first 8000 bytes (git's
   * rule), or bytes that are not UTF-8 (captured as binary too, so the patch keeps them).
   */
  readonly binaryPaths: readonly string[];
}

/*
 * Attributes bakeoff's own git directory puts above the worktree's .gitattributes (the
 * highest-precedence place git reads): whatever the agent's .gitattributes says, no line-ending
 * conversion, filter, ident or encoding touches what is captured, and
 *   - for the patch, binary files are detected by content (a binary-safe patch);
 *   - for the line counts, every file is text (`* binary` cannot hide lines from review).
 */
const CAPTURE_ATTRIBUTES = '* !diff -text -filter -ident -working-tree-encoding -merge\n';
const COUNT_ATTRIBUTES = '* diff -text -filter -ident -working-tree-encoding -merge\n';

/**
 * Diffs `workspace` against the prepared repo's commit, leaving out setup outputs (the
 * prepared repo's info/exclude) and never touching the workspace's own .git. The patch is
 * text, so a file git would diff as text but whose bytes are not UTF-8 (a Latin-1 file, a
 * packed blob without a NUL byte) is captured as a binary patch: a text hunk of it would not
 * survive being held as a string.
 */
export async function captureChange(preparedRepo: string, workspace: string): Promise<Change> {
  const view = await openWorkspaceGit(preparedRepo, workspace);
  try {
    const { env } = view;
    await git(['add', '-A', '--', '.'], { cwd: workspace, env });
    const detected = parseNumstat(await git(['diff', '--cached', '--numstat', '-z', '--no-textconv', '--diff-filter=d', 'HEAD'], { cwd: workspace, env }));
    const binary = new Set(detected.binary);
    const undecodable = await notUtf8(workspace, detected.paths.filter((p) => !binary.has(p)));
    if (undecodable.length > 0) await view.setAttributes(CAPTURE_ATTRIBUTES + undecodable.map((p) => `${attributePattern(p)} -diff\n`).join(''));
    const patch = await git(['diff', '--cached', '--binary', '--full-index', '--no-textconv', 'HEAD'], { cwd: workspace, env });
    await view.setAttributes(COUNT_ATTRIBUTES);
    const counted = parseNumstat(await git(['diff', '--cached', '--numstat', '-z', '--no-textconv', 'HEAD'], { cwd: workspace, env }));
    const review = await reviewLines(workspace, env);
    return {
      patch,
      linesAdded: review.added,
      linesRemoved: review.removed,
      plainLinesAdded: counted.linesAdded,
      plainLinesRemoved: counted.linesRemoved,
      paths: counted.paths,
      binaryPaths: [...detected.binary, ...undecodable],
    };
  } finally {
    await view.dispose();
  }
}

/** Lines to review of the staged change (count attributes in force: every file as text). */
async function reviewLines(workspace: string, env: Readonly<Record<string, string>>): Promise<{ added: number; removed: number }> {
  const text = linesOfDiff(await git(['diff', '--cached', '-U0', '--no-textconv', '--no-ext-diff', '--no-color', 'HEAD'], { cwd: workspace, env }));
  const raw = parseRawDiff(await git(['diff', '--cached', '--raw', '-z', '--no-abbrev', 'HEAD'], { cwd: workspace, env }));
  // the folders the commit has matter only for the folders of added files; most changes add none
  const addsIntoFolders = raw.some((entry) => entry.status === 'A' && entry.path.includes('/'));
  const dirs = addsIntoFolders ? new Set((await git(['ls-tree', '-r', '-d', '-z', '--name-only', 'HEAD'], { cwd: workspace, env })).split('\0').filter((d) => d !== '')) : new Set<string>();
  return { added: text.added + linesOfNames(raw, dirs), removed: text.removed };
}

/** Of `paths` (relative to `dir`), the regular files whose bytes are not UTF-8. */
async function notUtf8(dir: string, paths: readonly string[]): Promise<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: string[] = [];
  for (const rel of paths) {
    const file = path.join(dir, rel);
    // a name that is not UTF-8 arrives here changed, and is not found: such a change is refused before grading
    if (!(await lstat(file).catch(() => undefined))?.isFile()) continue;
    try {
      decoder.decode(await readFile(file));
    } catch {
      out.push(rel);
    }
  }
  return out;
}

/** An attributes pattern matching exactly `rel` (glob characters escaped, quoted C-style). */
function attributePattern(rel: string): string {
  const glob = `/${rel.replace(/[\\*?[\]]/g, (c) => `\\${c}`)}`;
  return `"${glob.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;
}

/** git pointed at a workspace through a private git directory (see {@link openWorkspaceGit}). */
export interface WorkspaceGit {
  /** GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE for {@link git}. */
  readonly env: Readonly<Record<string, string>>;
  /** Replaces the attributes that rank above the worktree's .gitattributes. */
  setAttributes(text: string): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A private git directory for looking at a workspace: the prepared repo's commit and objects
 * borrowed read-only, its exclude list copied, bakeoff's own attributes, an index holding the
 * commit. Nothing the agent wrote configures it, and nothing is written into the prepared
 * repo, which other runs share.
 */
export async function openWorkspaceGit(preparedRepo: string, workspace: string): Promise<WorkspaceGit> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-git-'));
  try {
    const preparedGit = path.join(preparedRepo, '.git');
    const head = (await git(['rev-parse', 'HEAD'], { cwd: preparedRepo, env: { GIT_DIR: preparedGit } })).trim();
    const gitDir = path.join(tmp, 'git');
    await mkdir(path.join(gitDir, 'objects', 'info'), { recursive: true });
    await mkdir(path.join(gitDir, 'refs'), { recursive: true });
    await mkdir(path.join(gitDir, 'info'), { recursive: true });
    await writeFile(path.join(gitDir, 'HEAD'), `${head}\n`);
    await writeFile(path.join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
    await writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), `${path.join(preparedGit, 'objects')}\n`);
    const exclude = await readFile(path.join(preparedGit, 'info', 'exclude'), 'utf8').catch(() => '');
    await writeFile(path.join(gitDir, 'info', 'exclude'), exclude);
    const attributes = path.join(gitDir, 'info', 'attributes');
    await writeFile(attributes, CAPTURE_ATTRIBUTES);
    const env = { GIT_DIR: gitDir, GIT_WORK_TREE: workspace, GIT_INDEX_FILE: path.join(tmp, 'index') };
    await git(['read-tree', 'HEAD'], { cwd: workspace, env });
    return {
      env,
      setAttributes: (text) => writeFile(attributes, text),
      dispose: () => rm(tmp, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
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

function parseNumstat(z: string): { linesAdded: number; linesRemoved: number; paths: string[]; binary: string[] } {
  let linesAdded = 0;
  let linesRemoved = 0;
  const paths: string[] = [];
  const binary: string[] = [];
  for (const record of z.split('\0')) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(record);
    if (!match) continue;
    if (match[1] !== '-') linesAdded += Number(match[1]);
    if (match[2] !== '-') linesRemoved += Number(match[2]);
    if (match[1] === '-') binary.push(match[3]!);
    paths.push(match[3]!);
  }
  return { linesAdded, linesRemoved, paths, binary };
}
