import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { findTestCases } from './find-test-cases.js';

/*
 * tape prints a test's name alone (`# name`), never its file: one process runs every file, in
 * the order the command names them, each test after the ones made before it. bakeoff reads the
 * files to tell which one each name comes from: the titles of a file's top-level `test(…)`
 * calls in source order, and every other plain string it holds (nested `t.test` titles, tests
 * named by a variable's string, bakeoff's own tripwires). A name is matched in order — the
 * file of the last match first, then the files after it, then from the start — so two files
 * with one test name each keep their own; a name no file spells (a title built at run time)
 * goes with the file of the name before it, and before any match stays without a file.
 */

/** One tape test file: its top-level test titles in source order, and every plain string it holds. */
export interface TapeFile {
  readonly file: string;
  readonly titles: readonly string[];
  readonly strings: ReadonlySet<string>;
}

/** Folders never searched for test files. */
const SKIPPED = new Set(['node_modules', '.git']);
/** Most files read: a repository with more tape files than this gets no file names. */
const MAX_FILES = 2000;

/** The repo's files that match `globs` and load tape, in path order (byte order), read. */
export async function readTapeFiles(repoDir: string, globs: readonly string[], usesTape: (text: string) => boolean): Promise<TapeFile[]> {
  const matches = picomatch([...globs], { dot: true });
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(repoDir, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (found.length > MAX_FILES) return;
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) await walk(child);
      else if (entry.isFile() && matches(child)) found.push(child);
    }
  };
  await walk('');
  if (found.length > MAX_FILES) return [];
  const out: TapeFile[] = [];
  for (const file of found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = await readFile(path.join(repoDir, file), 'utf8');
    if (!usesTape(text)) continue;
    const cases = await findTestCases(file, text);
    out.push({ file, titles: (cases?.cases ?? []).filter((c) => c.path.length === 0).map((c) => c.name), strings: cases?.names ?? new Set() });
  }
  return out;
}

/** Names each `# name` heading's file, heading after heading, in the order tape printed them. */
export function createTapeFileNamer(files: readonly TapeFile[]): (name: string) => string | null {
  const entries = files.flatMap((f, fileIndex) => f.titles.map((title) => ({ fileIndex, title })));
  let next = 0;
  let current: number | null = null;
  const take = (i: number): string => {
    next = i + 1;
    current = entries[i]!.fileIndex;
    return files[current]!.file;
  };
  const titleAt = (name: string, from: number, to: number, inFile?: number): number => {
    for (let i = from; i < to; i++) if (entries[i]!.title === name && (inFile === undefined || entries[i]!.fileIndex === inFile)) return i;
    return -1;
  };
  return (name) => {
    if (files.length <= 1) return files[0]?.file ?? null;
    if (current !== null) {
      const own = titleAt(name, next, entries.length, current);
      if (own >= 0) return take(own);
      if (files[current]!.strings.has(name)) return files[current]!.file;
    }
    const later = titleAt(name, next, entries.length);
    if (later >= 0) return take(later);
    for (let f = (current ?? -1) + 1; f < files.length; f++) {
      if (!files[f]!.strings.has(name)) continue;
      current = f;
      const first = entries.findIndex((e) => e.fileIndex === f);
      if (first >= 0) next = first;
      return files[f]!.file;
    }
    const earlier = titleAt(name, 0, next);
    if (earlier >= 0) return take(earlier);
    return current === null ? null : files[current]!.file;
  };
}
