import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, UserError } from '../errors.js';
import { listTree, readEntry, toInputIssues } from '../util/index.js';
import { diffFiles } from './diff-files.js';
import { writeTaskFolder, type TreeFile } from './task-folder.js';
import type { Importer } from './types.js';

/*
 * An Exercism track folder, as the exercism/<track> repositories lay it out:
 *
 *   config.json                              the track: {"slug": "python", …}
 *   exercises/practice/<slug>/
 *     .docs/instructions.md                  the prompt (+ introduction.md before, instructions.append.md after)
 *     .meta/config.json                      {"files": {"solution": [...], "test": [...], "example": [...]}}
 *     .meta/example.py | proof.ci.js | example.rs | …   the reference solution: the gold
 *     <solution stub>, <tests>, package.json, Cargo.toml, …
 *
 * A task per exercise: repo/ = the exercise without .meta/, .docs/, .approaches/, .articles/
 * and its test files; orders/1/hidden/ = the test files with the skipped tests switched on as
 * the track's CI does (JavaScript/TypeScript `xtest(` → `test(`, Rust `#[ignore]` removed);
 * gold.patch = the stub files replaced by the example's.
 */

const ExerciseConfig = z.object({
  files: z.object({
    solution: z.array(z.string().min(1)).min(1),
    test: z.array(z.string().min(1)).min(1),
    example: z.array(z.string().min(1)).optional(),
    exemplar: z.array(z.string().min(1)).optional(),
  }),
});

type Language = 'js' | 'ts' | 'python' | 'rust';

const TRACKS: Readonly<Record<string, Language>> = { python: 'python', javascript: 'js', typescript: 'ts', rust: 'rust' };
const LEFT_OUT = new Set(['.meta', '.docs', '.approaches', '.articles']);

export interface ImportExercismOptions {
  readonly track: string;
  readonly suiteDir: string;
  /** Exercise slugs; default: every practice exercise. */
  readonly exercises?: readonly string[];
}

export type ImportedExercise =
  | { readonly slug: string; readonly written: true; readonly id: string; readonly taskDir: string; readonly command: string; readonly setup: string | null; readonly hidden: readonly string[]; readonly unskipped: number }
  | { readonly slug: string; readonly written: false; readonly reason: string };

/** One task per exercise of an Exercism track folder (layout above); an exercise that cannot be a task is refused with the reason. */
export async function importExercism(options: ImportExercismOptions): Promise<ImportedExercise[]> {
  const { track } = options;
  const trackConfig = await readJson(path.join(track, 'config.json'));
  const trackSlug = typeof (trackConfig as { slug?: unknown }).slug === 'string' ? (trackConfig as { slug: string }).slug : '';
  const language = TRACKS[trackSlug];
  if (!language) {
    throw new InputError([{ file: path.join(track, 'config.json'), field: 'slug', expected: `an Exercism track bakeoff has a runner for (${Object.keys(TRACKS).join(', ')})`, received: JSON.stringify(trackSlug) }]);
  }
  const practice = path.join(track, 'exercises', 'practice');
  const all = (await readdir(practice).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  if (all.length === 0) throw new UserError(`${practice}: expected the track's practice exercises (exercises/practice/<slug>/), found none`);
  const wanted = options.exercises && options.exercises.length > 0 ? [...options.exercises] : all;
  const unknown = wanted.filter((s) => !all.includes(s));
  if (unknown.length > 0) throw new UserError(`--exercises ${unknown.join(', ')}: not in ${practice} (it has ${all.slice(0, 6).join(', ')}${all.length > 6 ? ', …' : ''})`);
  const out: ImportedExercise[] = [];
  for (const slug of wanted) {
    try {
      out.push(await importExercise(path.join(practice, slug), slug, trackSlug, language, options.suiteDir));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      out.push({ slug, written: false, reason: error.message });
    }
  }
  return out;
}

async function importExercise(dir: string, slug: string, trackSlug: string, language: Language, suiteDir: string): Promise<ImportedExercise> {
  const configFile = path.join(dir, '.meta', 'config.json');
  const parsed = ExerciseConfig.safeParse(await readJson(configFile));
  if (!parsed.success) throw new InputError(toInputIssues(configFile, parsed.error));
  const { solution, test } = parsed.data.files;
  const example = parsed.data.files.example ?? parsed.data.files.exemplar;
  if (!example) throw new UserError(`${configFile}: files.example (or files.exemplar) is missing: without the reference solution there is no gold`);
  const files = await exerciseFiles(dir);
  const missing = [...solution, ...test, ...example].filter((f) => !files.has(f));
  if (missing.length > 0) throw new UserError(`${configFile}: names ${missing.join(', ')}, which ${dir} does not have`);
  const testSet = new Set(test);
  const repo: TreeFile[] = [...files].filter(([rel]) => !testSet.has(rel) && !LEFT_OUT.has(rel.split('/')[0]!)).map(([rel, f]) => ({ path: rel, content: f.content, kind: f.kind }));
  let unskipped = 0;
  const hidden = new Map(
    test.map((rel) => {
      const { text, count } = switchOnSkipped(files.get(rel)!.content.toString('utf8'), language);
      unskipped += count;
      return [rel, text] as const;
    }),
  );
  const gold = await diffFiles(new Map(solution.map((s) => [s, files.get(s)!.content])), goldFiles(solution, example, files, configFile));
  const docs = async (name: string): Promise<string | null> => readFile(path.join(dir, '.docs', name), 'utf8').catch(() => null);
  const prompt = [await docs('introduction.md'), await docs('instructions.md'), await docs('instructions.append.md')].filter((t): t is string => t !== null && t.trim() !== '').map((t) => t.trim()).join('\n\n');
  if (prompt === '') throw new UserError(`${path.join(dir, '.docs', 'instructions.md')}: expected the exercise's instructions, found none`);
  const { command, setup } = commands(language, test, files);
  const id = `${trackSlug}-${slug}`.toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
  const manifest = {
    schemaVersion: 1,
    kind: 'feature',
    language,
    summary: `Exercism ${trackSlug} exercise ${slug}.`,
    setup,
    test: { command, format: language === 'rust' ? 'cargo' : language === 'python' ? 'pytest' : 'jest' },
    protectedPaths: [],
    origin: { kind: 'exercism', repo: `github.com/exercism/${trackSlug}`, id: slug },
  };
  const { taskDir } = await writeTaskFolder({ suiteDir, id, manifest, repo, orders: [{ prompt: `${prompt}\n`, gold, hidden }], suiteDescription: `Exercises of the Exercism ${trackSlug} track.` });
  return { slug, written: true, id, taskDir, command, setup, hidden: test, unskipped };
}

/** The example's files at the solution's paths: each example file takes the next solution file with its extension (`.meta/proof.ci.js` → `<slug>.js`, `.meta/example.rs` → `src/lib.rs`). */
function goldFiles(solution: readonly string[], example: readonly string[], files: ReadonlyMap<string, { content: Buffer }>, configFile: string): Map<string, Buffer> {
  const free = [...solution];
  const out = new Map<string, Buffer>();
  for (const ex of example) {
    const at = free.findIndex((s) => path.extname(s) === path.extname(ex));
    if (at < 0) throw new UserError(`${configFile}: files.example ${ex} has no solution file with its extension (${solution.join(', ')})`);
    out.set(free[at]!, files.get(ex)!.content);
    free.splice(at, 1);
  }
  return out;
}

/** Skipped tests switched on as each track's CI runs them; how many it switched on. */
export function switchOnSkipped(text: string, language: Language): { text: string; count: number } {
  let count = 0;
  const counted = (re: RegExp, to: string) => (t: string): string =>
    t.replace(re, () => {
      count++;
      return to;
    });
  if (language === 'js' || language === 'ts') text = counted(/\bxit\(/g, 'it(')(counted(/\bxtest\(/g, 'test(')(text));
  if (language === 'rust') text = counted(/^[ \t]*#\[ignore(?:\s*=\s*"[^"]*")?\]\s*\r?\n/gm, '')(text);
  return { text, count };
}

function commands(language: Language, tests: readonly string[], files: ReadonlyMap<string, unknown>): { command: string; setup: string | null } {
  switch (language) {
    case 'python':
      return { command: `python -m pytest -q ${tests.join(' ')}`, setup: null };
    case 'rust':
      return { command: 'cargo test', setup: 'cargo build --tests --offline' };
    default:
      return { command: `npx jest ${tests.join(' ')}`, setup: files.has('package-lock.json') ? 'npm ci' : 'npm install --no-audit --no-fund' };
  }
}

async function exerciseFiles(dir: string): Promise<Map<string, { content: Buffer; kind: 'file' | 'executable' | 'symlink' }>> {
  const out = new Map<string, { content: Buffer; kind: 'file' | 'executable' | 'symlink' }>();
  for (const entry of await listTree(dir)) {
    out.set(entry.rel, { content: Buffer.from(await readEntry(dir, entry)), kind: entry.type === 'symlink' ? 'symlink' : entry.executable ? 'executable' : 'file' });
  }
  return out;
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    const isDir = await stat(path.dirname(file)).then((s) => s.isDirectory(), () => false);
    throw new InputError([{ file, field: '', expected: 'a JSON file (an Exercism track folder has config.json, each exercise .meta/config.json)', received: isDir ? 'no such file' : 'no such folder' }]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError([{ file, field: '', expected: 'JSON', received: (error as Error).message }]);
  }
}

/** `import exercism` in the registry: the track folder is the `source`. */
export const exercismImporter: Importer<Pick<ImportExercismOptions, 'exercises'>> = {
  reads: 'an Exercism track folder (config.json, exercises/practice/<slug>/)',
  importTasks: async ({ source, ...rest }) =>
    (await importExercism({ ...rest, track: source })).map((r) => (r.written ? { item: r.slug, written: true, id: r.id, taskDir: r.taskDir } : { item: r.slug, written: false, reason: r.reason })),
};
