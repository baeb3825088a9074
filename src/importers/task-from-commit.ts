import path from 'node:path';
import { UserError } from '../errors.js';
import { ID_PATTERN, TaskManifestSchema } from '../suite/index.js';
import type { ReportFormat } from '../runners/index.js';
import { exists, maskUrlPasswords } from '../util/index.js';
import { draftPrompt } from './commit-prompt.js';
import { openGitRepo, type ChangedPath, type GitRepo, type TreeEntry } from './git-repo.js';
import { guessKind } from './guess-kind.js';
import { PYTHON_FILES } from './infer-python.js';
import { inferTask, LOCK_FILES, type RepoFacts } from './infer-task.js';
import { testPathRule } from './test-paths.js';
import { freeId, slugOf, writeTaskFolder, type TreeFile } from './task-folder.js';
import type { Importer } from './types.js';

export interface FromCommitOptions {
  /** The git repository (its top folder). */
  readonly repo: string;
  /** The commit whose change becomes the task (any revision naming one commit). */
  readonly commit: string;
  /** The suite folder; made (with a suite.yaml of defaults) when it has no suite.yaml. */
  readonly suiteDir: string;
  readonly id?: string;
  readonly kind?: 'bug' | 'feature';
  readonly language?: 'js' | 'ts' | 'python' | 'rust';
  /** Globs naming the test files; default: the path rule of test-paths.ts. */
  readonly tests?: readonly string[];
  /** The setup command; null for none; undefined: inferred. */
  readonly setup?: string | null;
  readonly test?: string;
  readonly format?: ReportFormat;
  /** Where the test command writes its JUnit XML (task.yaml `test.report`; format junit only). */
  readonly report?: string;
  /** An issue text the prompt is drafted from, instead of the commit message. */
  readonly issue?: { readonly file: string; readonly text: string };
}

/** A guess bakeoff made for the author to confirm, and what it came from. */
export interface Guess {
  readonly field: string;
  readonly value: string;
  readonly why: string;
}

export interface FromCommitResult {
  readonly id: string;
  readonly taskDir: string;
  readonly suiteCreated: boolean;
  readonly commit: string;
  readonly parent: string;
  /** Test files whose post-image went to orders/1/hidden/. */
  readonly testFiles: readonly string[];
  /** Files the gold patch changes. */
  readonly codeFiles: readonly string[];
  readonly guesses: readonly Guess[];
}

/** A commit that cannot be a task: `brief` says why in a few words (for `task mine`'s table). */
export class CommitRefused extends UserError {
  constructor(
    readonly brief: string,
    message: string,
  ) {
    super(message);
  }
}

const LFS_POINTER = Buffer.from('version https://git-lfs.github.com/spec/v1');
/** A Git LFS pointer file is smaller than this (the spec's limit). */
const LFS_POINTER_MAX_BYTES = 1024;

/**
 * Writes `<suite>/tasks/<id>/` from one commit of a git repository: `repo/` is the parent's
 * tree (no history), `orders/1/hidden/` the post-image of the test files the commit added or
 * changed, `orders/1/gold.patch` the rest of the commit, `orders/1/prompt.md` a draft from the
 * commit message without its trailers (or the issue; commit-prompt.ts: admission's callers add
 * what it observed on the parent), and `task.yaml` with the guesses it prints. Refuses, saying
 * why and writing nothing, a root or merge commit, a parent missing from a shallow clone, a
 * commit without a test change or without a code change, one that deletes a test file (or
 * renames one: a rename is a deletion here), binary files, submodules and Git LFS files. The
 * folder appears whole or not at all (written beside, then renamed). It never grades: the
 * caller runs the admission checks.
 */
export async function taskFromCommit(options: FromCommitOptions): Promise<FromCommitResult> {
  const git = await openGitRepo(options.repo);
  const sha = await git.commit(options.commit);
  const short = sha.slice(0, 12);
  const { parent, tests, code, before, after } = await inspectCommit(git, sha, options.tests);
  const message = await git.message(sha);
  const subject = message.split('\n')[0]!.trim() || `commit ${short}`;

  const suiteDir = path.resolve(options.suiteDir);
  const suiteCreated = !(await exists(path.join(suiteDir, 'suite.yaml')));
  const id = options.id ?? (await freeId(suiteDir, slugOf(subject)));
  if (!ID_PATTERN.test(id)) throw new UserError(`--id ${JSON.stringify(id)}: a task id matches ${ID_PATTERN}`);
  const taskDir = path.join(suiteDir, 'tasks', id);
  if (await exists(taskDir)) throw new UserError(`${taskDir}: the suite has a task ${id} already; choose another --id`);

  const blobs = await git.blobs([...new Set([...before, ...after].filter((e) => e.kind !== 'submodule').map((e) => e.sha))]);
  const packageBlob = before.find((e) => e.path === 'package.json');
  const rootFiles = new Set<string>([...PYTHON_FILES, ...LOCK_FILES]);
  const facts: RepoFacts = {
    paths: new Set(before.map((e) => e.path)),
    packageJson: packageBlob ? parseJson(blobs.get(packageBlob.sha)!) : null,
    changedCode: code.map((c) => c.path),
    texts: new Map(before.filter((e) => e.kind === 'file' && rootFiles.has(e.path)).map((e) => [e.path, blobs.get(e.sha)!.toString('utf8')])),
  };
  const gold = await git.diff(parent, sha, code.map((c) => c.path));
  const { manifest, guesses } = manifestOf(options, facts, { subject, sha, gold: gold.toString('utf8'), origin: originRepo(await git.originUrl(), git.dir) });

  const testSet = new Set(tests.map((t) => t.path));
  const source = options.issue ? `the issue ${path.basename(options.issue.file)}` : `the message of commit ${short}`;
  await writeTaskFolder({
    suiteDir,
    id,
    manifest,
    repo: treeFiles(before, blobs, short),
    orders: [
      {
        prompt: draftPrompt(source, options.issue ? { issue: options.issue.text } : { message }),
        gold,
        hidden: new Map(treeFiles(after.filter((e) => testSet.has(e.path)), blobs, short).map((f) => [f.path, f.content])),
      },
    ],
    suiteDescription: 'Tasks made with bakeoff task from-commit.',
  });
  return { id, taskDir, suiteCreated, commit: sha, parent, testFiles: tests.map((t) => t.path), codeFiles: code.map((c) => c.path), guesses };
}

/**
 * What a commit would make of a task: its parent, test and code changes, the parent's tree and its own;
 * CommitRefused for a commit it cannot take. `lfsSeen` (blob sha → is an LFS pointer) lets
 * `task mine` look at each blob once over many commits.
 */
export async function inspectCommit(
  git: GitRepo,
  sha: string,
  globs: readonly string[] | undefined,
  lfsSeen: Map<string, boolean> = new Map(),
): Promise<{ parent: string; tests: ChangedPath[]; code: ChangedPath[]; before: TreeEntry[]; after: TreeEntry[] }> {
  const short = sha.slice(0, 12);
  const parent = await parentOf(git, sha, short);
  const changes = await git.changes(parent, sha);
  const isTest = testPathRule(globs);
  const tests = changes.filter((c) => isTest(c.path));
  const code = changes.filter((c) => !isTest(c.path));
  refuseChanges(short, changes, tests, code, globs);
  const before = await git.tree(parent);
  refuseTree(short, before);
  const after = await git.tree(sha);
  const changed = new Set(changes.map((c) => c.path));
  const pointers = await lfsPointers(git, [...before, ...after.filter((e) => changed.has(e.path))], lfsSeen);
  if (pointers.length > 0) {
    const shown = pointers.length > 5 ? `${pointers.slice(0, 5).join(', ')} and ${pointers.length - 5} more` : pointers.join(', ');
    throw new CommitRefused(
      'LFS files',
      `commit ${short} (or its parent) has Git LFS pointers instead of files (${shown}): bakeoff reads the object database only, which holds the pointers; take a repository without LFS files`,
    );
  }
  return { parent, tests, code, before, after };
}

/** Paths of the entries whose blob is a Git LFS pointer (only blobs small enough to be one are read). */
async function lfsPointers(git: GitRepo, entries: readonly TreeEntry[], seen: Map<string, boolean>): Promise<string[]> {
  const files = entries.filter((e) => e.kind === 'file' || e.kind === 'executable');
  const unseen = [...new Set(files.map((e) => e.sha).filter((s) => !seen.has(s)))];
  const sizes = await git.sizes(unseen);
  const small = unseen.filter((s) => (sizes.get(s) ?? Infinity) < LFS_POINTER_MAX_BYTES);
  const blobs = await git.blobs(small);
  for (const s of unseen) seen.set(s, blobs.get(s)?.subarray(0, LFS_POINTER.length).equals(LFS_POINTER) ?? false);
  return files.filter((e) => seen.get(e.sha)).map((e) => e.path);
}

async function parentOf(git: GitRepo, sha: string, short: string): Promise<string> {
  const parents = await git.parents(sha);
  if (parents.length === 0) throw new CommitRefused('first commit', `commit ${short} is the repository's first commit: there is no parent to start the task from`);
  if (parents.length > 1) {
    throw new CommitRefused('merge', `commit ${short} is a merge (${parents.length} parents): a task is one change; take the commit on the merged branch that made it`);
  }
  const parent = parents[0]!;
  if (!(await git.has(parent))) {
    const how = (await git.shallow()) ? 'the clone is shallow: run `git fetch --deepen=1` (or --unshallow) in it' : 'fetch it into the clone';
    throw new CommitRefused('parent not in the clone', `commit ${short}: its parent ${parent.slice(0, 12)} is not in ${git.dir} (${how})`);
  }
  return parent;
}

function refuseChanges(short: string, all: readonly ChangedPath[], tests: readonly ChangedPath[], code: readonly ChangedPath[], globs: readonly string[] | undefined): void {
  const rule = globs && globs.length > 0 ? `--tests ${globs.join(' ')}` : 'the test-file rule (test/ tests/ __tests__/ spec/ folders, *.test.*, *.spec.*, test_*.py, *_test.py; --tests GLOB names others)';
  const binary = all.filter((c) => c.binary);
  if (binary.length > 0) throw new CommitRefused('binary files', `commit ${short} changes binary files (${binary.map((c) => c.path).join(', ')}): a task's change and hidden tests are text`);
  if (tests.length === 0) throw new CommitRefused('no test change', `commit ${short} changes no test file by ${rule}: without a test change there is nothing to grade the task by`);
  const gone = tests.filter((c) => c.status === 'deleted' || c.status === 'type-changed');
  if (gone.length > 0) {
    throw new CommitRefused(
      'deletes or renames a test',
      `commit ${short} deletes (or renames, or turns into a link) test files: ${gone.map((c) => c.path).join(', ')}; hidden tests can add and change files, not remove them`,
    );
  }
  if (code.length === 0) throw new CommitRefused('tests only', `commit ${short} changes only test files (${tests.map((c) => c.path).join(', ')}): there is no change for an agent to make`);
}

function refuseTree(short: string, tree: readonly TreeEntry[]): void {
  const submodules = tree.filter((e) => e.kind === 'submodule');
  if (submodules.length > 0) {
    throw new CommitRefused('submodules', `the parent of ${short} has submodules (${submodules.map((e) => e.path).join(', ')}): a task's repo is one tree; vendor them or take another repository`);
  }
}

/** Tree entries as files to write; refuses Git LFS pointers (the object database holds the pointer, not the file). */
export function treeFiles(entries: readonly TreeEntry[], blobs: ReadonlyMap<string, Buffer>, short: string): TreeFile[] {
  return entries
    .filter((e) => e.kind !== 'submodule')
    .map((entry) => {
      const content = blobs.get(entry.sha)!;
      if (entry.kind !== 'symlink' && content.subarray(0, LFS_POINTER.length).equals(LFS_POINTER)) {
        throw new UserError(`${entry.path} (at ${short} or its parent) is a Git LFS pointer, not the file: bakeoff reads the object database only; take a repository without LFS files`);
      }
      return { path: entry.path, content, kind: entry.kind === 'symlink' ? 'symlink' : entry.kind === 'executable' ? 'executable' : 'file' } as const;
    });
}

/**
 * What task.yaml's `origin.repo` records: the clone's remote URL (passwords masked), else the
 * repository's name — never a local path, which says nothing to a reader elsewhere and may
 * show the author's home folder on a public page.
 */
export function originRepo(url: string | null, dir: string): string {
  const local = url === null || /^(\/|\.{1,2}\/|~|file:)/.test(url) || !/[:@]/.test(url);
  if (!local) return maskUrlPasswords(url);
  const named = (url ?? dir).replace(/^file:\/\//, '').replace(/\/+$/, '');
  return path.basename(named).replace(/\.git$/, '') || path.basename(dir);
}

function manifestOf(
  options: FromCommitOptions,
  facts: RepoFacts,
  commit: { readonly subject: string; readonly sha: string; readonly gold: string; readonly origin: string },
): { manifest: Record<string, unknown>; guesses: Guess[] } {
  const { subject, sha } = commit;
  const inferred = inferTask(facts);
  const guesses: Guess[] = [];
  const guessed = guessKind(subject, commit.gold);
  const kind = options.kind ?? guessed.kind;
  if (!options.kind) guesses.push({ field: 'kind', value: kind, why: `${guessed.why}; --kind bug|feature` });
  const language = options.language ?? inferred.language?.value;
  if (!language) throw new UserError('could not tell the task\'s language from the changed files or the root manifests: pass --language js|ts|python|rust');
  if (!options.language) guesses.push({ field: 'language', value: language, why: inferred.language!.why });
  const setup = options.setup !== undefined ? options.setup : inferred.setup.value;
  if (options.setup === undefined) guesses.push({ field: 'setup', value: setup ?? '(none)', why: inferred.setup.why });
  const test = options.test ?? inferred.test?.command;
  const format = options.format ?? inferred.test?.format;
  if (!test || !format) throw new UserError('could not tell how the repository runs its tests: pass --test CMD and --format FORMAT');
  if (!options.test || !options.format) guesses.push({ field: 'test', value: `${test} (format ${format})`, why: inferred.test?.why ?? 'given' });
  const manifest = {
    schemaVersion: 1,
    kind,
    language,
    summary: subject.length > 200 ? `${subject.slice(0, 197)}...` : subject,
    setup,
    test: {
      command: test,
      format,
      ...(options.report !== undefined ? { report: options.report } : {}),
      ...(options.tests && options.tests.length > 0 ? { files: [...options.tests] } : {}),
    },
    protectedPaths: [],
    origin: { kind: 'commit', repo: commit.origin, commit: sha },
  };
  const checked = TaskManifestSchema.safeParse(manifest);
  if (!checked.success) throw new UserError(`task.yaml as drafted does not fit the schema: ${checked.error.issues.map((i) => `${flagOf(i.path)}${i.message}`).join('; ')}`);
  return { manifest, guesses };
}

/** The flag that sets a task.yaml field, in front of the schema's message. */
function flagOf(at: readonly PropertyKey[]): string {
  const field = at.join('.');
  const flag = { 'test.report': '--report', 'test.format': '--format', 'test.command': '--test', 'test.files': '--tests', setup: '--setup', kind: '--kind' }[field];
  return `${field}${flag ? ` (${flag})` : ''}: `;
}

function parseJson(buf: Buffer): RepoFacts['packageJson'] {
  try {
    const value: unknown = JSON.parse(buf.toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as RepoFacts['packageJson']) : null;
  } catch {
    return null;
  }
}

/** `task from-commit` in the registry: the repository is the `source`, one commit its one item (refused with the reason when it cannot be a task). */
export const commitImporter: Importer<Omit<FromCommitOptions, 'repo' | 'suiteDir'>> = {
  reads: 'a git repository and one of its commits (`commit`)',
  async importTasks({ source, ...rest }) {
    try {
      const r = await taskFromCommit({ ...rest, repo: source });
      return [{ item: rest.commit, written: true, id: r.id, taskDir: r.taskDir }];
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      return [{ item: rest.commit, written: false, reason: error.message }];
    }
  },
};
