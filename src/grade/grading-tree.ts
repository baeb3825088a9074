import { createHash } from 'node:crypto';
import { cp, lstat, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { Bind } from '../sandbox/index.js';
import { listTree } from '../util/index.js';
import { placeTripwires } from './place-tripwires.js';
import type { Tripwire, TripwireGroup } from './tripwires.js';
import type { TestRunner } from './types.js';

/*
 * The tree a grading runs in is the prepared repo plus the change, made into what the suite
 * grades with:
 *   - test files (the runner's patterns, or task.yaml `test.files`) are the suite's: a test
 *     file the change edited or deleted is put back, one it added is removed;
 *   - hidden files are copied over whatever the change put at their paths;
 *   - bakeoff's tripwire tests are placed in the hidden test files (place-tripwires.ts);
 *   - every graded test file is shown to the tests read-only, and every folder above one is a
 *     mount point of its own, so no code that runs during the tests can write, replace,
 *     delete or rename a graded test file, or move its folder away.
 */

export interface GradingTreeOptions {
  /** The grading copy: prepared repo with the change applied. */
  readonly repoDir: string;
  readonly preparedRepo: string;
  readonly runner: TestRunner;
  /** Globs of the files the runner collects as tests. */
  readonly testFiles: readonly string[];
  /** Repo-relative paths the change added, changed or deleted. */
  readonly changedPaths: readonly string[];
  /** Hidden folders of this order and every earlier one, oldest first. */
  readonly hiddenDirs: readonly string[];
  /** Test ids the lock expects (empty at admission): the files they live in are graded too. */
  readonly expectedIds: readonly string[];
  /** Ids tripwire groups may be made of: the fail-to-pass tests (place-tripwires.ts). */
  readonly templateIds?: readonly string[];
  /** Every id the report is known to hold besides `expectedIds` (known failures; at admission, the baseline run's). */
  readonly knownIds?: readonly string[];
}

export interface GradingTree {
  /** Repo-relative graded test files, each shown read-only. */
  readonly gradedFiles: readonly string[];
  /** sha256 of each graded file as placed (tripwires included), to compare after the run. */
  readonly digests: ReadonlyMap<string, string>;
  /** The wires placed (files with no test a group could be made of). */
  readonly tripwires: readonly Tripwire[];
  /** The tripwire groups placed. */
  readonly groups: readonly TripwireGroup[];
  /** Fail-to-pass tests a group could have been made of. */
  readonly eligible: readonly string[];
  /** Graded test files that cannot hold tripwires (`TestRunner.holdsTripwires`): whole-file tests, judged by their own result. */
  readonly unwired: readonly string[];
  /** Test files the change added (removed here) or edited or deleted (put back). */
  readonly removed: readonly string[];
  readonly restored: readonly string[];
  /** Binds for the sandbox: folders above graded files as mount points, graded files read-only. */
  readonly binds: readonly Bind[];
}

export async function buildGradingTree(options: GradingTreeOptions): Promise<GradingTree> {
  const { repoDir } = options;
  const isTest = picomatch([...options.testFiles], { dot: true });
  const hidden = await hiddenEntries(options.hiddenDirs);
  const removed: string[] = [];
  const restored: string[] = [];
  for (const rel of options.changedPaths) {
    if (!isTest(rel) || hidden.has(rel)) continue;
    const original = path.join(options.preparedRepo, rel);
    const present = await lstat(original).catch(() => undefined);
    await replaceEntry(repoDir, rel, present ? original : null);
    (present ? restored : removed).push(rel);
  }
  for (const [rel, source] of hidden) await replaceEntry(repoDir, rel, source);

  const targets = await tripwireTargets(repoDir, [...hidden.keys()], options.expectedIds, isTest);
  const placed = await placeTripwires({
    repoDir,
    runner: options.runner,
    files: targets,
    templateIds: options.templateIds ?? [],
    knownIds: [...options.expectedIds, ...(options.knownIds ?? [])],
    moduleKind: (rel, text) => moduleKind(repoDir, rel, text),
  });

  const graded = new Set<string>(targets);
  for (const rel of hidden.keys()) graded.add(rel);
  for (const id of options.expectedIds) {
    const file = id.split('::')[0]!;
    if (file !== id && !graded.has(file)) graded.add(file);
  }
  const gradedFiles: string[] = [];
  for (const rel of [...graded].sort()) if (await isRegularFile(path.join(repoDir, rel))) gradedFiles.push(rel);
  const digests = await digestFiles(repoDir, gradedFiles);
  const { wires: tripwires, groups, eligible, unwired } = placed;
  return { gradedFiles, digests, tripwires, groups, eligible, unwired, removed, restored, binds: immutableBinds(repoDir, gradedFiles) };
}

/**
 * The files that get tripwires: they must run the way the expected tests run (same process,
 * same imports), so they are the test files holding those tests — the hidden ones; else, when
 * every hidden file is data, the files of the expected ids; else (admission, before any id is
 * known) the first test files of the tree.
 */
async function tripwireTargets(repoDir: string, hidden: readonly string[], expectedIds: readonly string[], isTest: (rel: string) => boolean): Promise<string[]> {
  const regular = async (rels: Iterable<string>): Promise<string[]> => {
    const out: string[] = [];
    for (const rel of [...new Set(rels)].sort()) if (isTest(rel) && (await isRegularFile(path.join(repoDir, rel)))) out.push(rel);
    return out;
  };
  const fromHidden = await regular(hidden);
  if (fromHidden.length > 0) return fromHidden;
  const fromIds = await regular(expectedIds.map((id) => id.split('::')[0]!));
  if (fromIds.length > 0 || expectedIds.length > 0) return fromIds;
  return (await regular((await listTree(repoDir)).map((e) => e.rel))).slice(0, 10);
}

/** sha256 of each file (repo-relative), as it is now. */
export async function digestFiles(repoDir: string, files: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const rel of files) {
    const bytes = await readFile(path.join(repoDir, rel)).catch(() => null);
    out.set(rel, bytes === null ? 'missing' : createHash('sha256').update(bytes).digest('hex'));
  }
  return out;
}

/** Graded files whose content differs from `before` (changed, replaced or gone). */
export async function changedGradedFiles(repoDir: string, before: ReadonlyMap<string, string>): Promise<string[]> {
  const after = await digestFiles(repoDir, [...before.keys()]);
  return [...before].filter(([rel, digest]) => after.get(rel) !== digest).map(([rel]) => rel);
}

/** Each folder above a graded file bound onto itself (so it cannot be renamed or removed), then the files read-only. */
function immutableBinds(repoDir: string, files: readonly string[]): Bind[] {
  const dirs = new Set<string>();
  for (const rel of files) {
    const parts = rel.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  const byDepth = [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  return [
    ...byDepth.map((rel) => ({ path: path.join(repoDir, rel), writable: true })),
    ...files.map((rel) => ({ path: path.join(repoDir, rel), writable: false })),
  ];
}

/** Copies the hidden files into the repo over whatever is at their paths (no tripwires, nothing else). */
export async function placeHiddenFiles(repoDir: string, hiddenDirs: readonly string[]): Promise<void> {
  for (const [rel, source] of await hiddenEntries(hiddenDirs)) await replaceEntry(repoDir, rel, source);
}

/** Hidden entries by repo-relative path (later orders win), with their source paths. */
async function hiddenEntries(hiddenDirs: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const dir of hiddenDirs) {
    for (const entry of await listTree(dir).catch(() => [])) out.set(entry.rel, path.join(dir, entry.rel));
  }
  return out;
}

/** Puts `source` (or nothing, when null) at `rel`, replacing any file, folder or link there and any symlinked parent. */
async function replaceEntry(repoDir: string, rel: string, source: string | null): Promise<void> {
  await unlinkSymlinkedParents(repoDir, rel);
  const target = path.join(repoDir, rel);
  await rm(target, { recursive: true, force: true });
  if (source === null) return;
  await mkdir(path.dirname(target), { recursive: true });
  await cp(source, target, { verbatimSymlinks: true, recursive: true });
}

/** Removes any symlink or file among the parent folders of `rel`, so writes cannot leave the repo. */
async function unlinkSymlinkedParents(repoDir: string, rel: string): Promise<void> {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = path.join(repoDir, ...parts.slice(0, i));
    const st = await lstat(dir).catch(() => undefined);
    if (!st) return;
    if (!st.isDirectory()) {
      await rm(dir, { force: true });
      return;
    }
  }
}

async function isRegularFile(file: string): Promise<boolean> {
  const st = await lstat(file).catch(() => undefined);
  return st !== undefined && st.isFile();
}

/** How node loads a JavaScript file: by extension, by its own imports, else by the nearest package.json `type`. */
export async function moduleKind(repoDir: string, rel: string, text: string): Promise<'esm' | 'cjs'> {
  if (/\.m[jt]sx?$/.test(rel)) return 'esm';
  if (/\.c[jt]sx?$/.test(rel)) return 'cjs';
  if (/^\s*(import\s*[\w{*'"]|export\s)/m.test(text)) return 'esm';
  if (/\brequire\s*\(/.test(text)) return 'cjs';
  for (let dir = path.dirname(rel); ; dir = path.dirname(dir)) {
    const pkg = await readFile(path.join(repoDir, dir, 'package.json'), 'utf8').catch(() => null);
    if (pkg !== null) {
      try {
        return (JSON.parse(pkg) as { type?: unknown }).type === 'module' ? 'esm' : 'cjs';
      } catch {
        return 'cjs';
      }
    }
    if (dir === '.' || dir === '/' || dir === '') return 'cjs';
  }
}
