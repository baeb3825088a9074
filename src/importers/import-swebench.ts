import path from 'node:path';
import { UserError } from '../errors.js';
import { ID_PATTERN } from '../suite/index.js';
import type { ReportFormat } from '../runners/index.js';
import { exists, quoteShellArg } from '../util/index.js';
import { applyPatchTo } from './apply-patch.js';
import { openGitRepo, type GitRepo } from './git-repo.js';
import { inferTask } from './infer-task.js';
import { readSwebenchInstances, type ReadInstance, type SwebenchInstance } from './swebench-instances.js';
import { slugOf, writeTaskFolder } from './task-folder.js';
import { treeFiles } from './task-from-commit.js';
import type { Importer } from './types.js';

export interface ImportSwebenchOptions {
  /** A JSONL file of instances, a v5 task repo (sweb.yaml) or one v5 task folder. */
  readonly source: string;
  /** The folder of git clones: `<owner>__<name>/`, `<name>/` or `<owner>/<name>/` per repository. */
  readonly repos: string;
  readonly suiteDir: string;
  /** Import only these instance ids. */
  readonly only?: readonly string[];
  /** Setup command for every instance (null: none); default: inferred from the repository. */
  readonly setup?: string | null;
  /** Test command for every instance; default: the runner's, on the test patch's files (SWE-bench's test directives). */
  readonly test?: string;
  readonly kind?: 'bug' | 'feature';
}

/** What became of one instance. */
export type ImportedInstance =
  | { readonly instanceId: string; readonly where: string; readonly written: true; readonly id: string; readonly taskDir: string; readonly format: ReportFormat; readonly command: string; readonly setup: string | null; readonly hidden: readonly string[] }
  | { readonly instanceId: string; readonly where: string; readonly written: false; readonly reason: string };

/** SWE-bench log parsers (PARSER_REGISTRY keys, with or without `parse_log_`) whose runs bakeoff reports on itself, and the format it runs them with. */
const PARSER_FORMATS: Readonly<Record<string, ReportFormat>> = { pytest: 'pytest', pytest_options: 'pytest', pytest_v2: 'pytest', cargo: 'cargo', jest: 'jest', jest_json: 'jest', vitest: 'vitest', tap: 'tap' };

/** Repositories whose classic instances (no log_parser field) the harness parses with a parser of test ids bakeoff's runners do not produce. */
const REPO_PARSERS: Readonly<Record<string, string>> = { 'django/django': 'parse_log_django', 'sympy/sympy': 'parse_log_sympy' };

/**
 * Writes one task per SWE-bench instance: `repo/` = the clone's tree at `base_commit` (no
 * history), `orders/1/hidden/` = the post-images of `test_patch`, `gold.patch` = `patch`,
 * `prompt.md` = `problem_statement` as the author wrote it (not a draft), and in
 * task.yaml `origin: {kind: swebench, id, expected: {failToPass, passToPass}}` so admission
 * checks that it finds the instance's own sets. An instance whose runner bakeoff cannot report
 * on (the log parser is named), whose clone or commit is missing, or whose test patch deletes
 * a file is refused with the reason; the others are written, each whole or not at all.
 */
export async function importSwebench(options: ImportSwebenchOptions): Promise<ImportedInstance[]> {
  let instances = await readSwebenchInstances(options.source);
  if (options.only && options.only.length > 0) {
    const known = new Set(instances.map((r) => r.instance.instance_id));
    const missing = options.only.filter((id) => !known.has(id));
    if (missing.length > 0) throw new UserError(`--instance ${missing.join(', ')}: not in ${options.source} (it has ${[...known].slice(0, 5).join(', ')}${known.size > 5 ? ', …' : ''})`);
    instances = instances.filter((r) => options.only!.includes(r.instance.instance_id));
  }
  const out: ImportedInstance[] = [];
  for (const read of instances) {
    try {
      out.push(await importOne(read, options));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const at = `${read.where}: instance ${read.instance.instance_id}`;
      out.push({ instanceId: read.instance.instance_id, where: read.where, written: false, reason: error.message.startsWith(at) ? error.message : `${at}: ${error.message}` });
    }
  }
  return out;
}

async function importOne({ where, instance }: ReadInstance, options: ImportSwebenchOptions): Promise<ImportedInstance> {
  const at = `${where}: instance ${instance.instance_id}`;
  const parsed = parserFormat(instance, at);
  const git = await openGitRepo(await findClone(options.repos, instance.repo, at));
  const base = await git.commit(instance.base_commit).catch(() => {
    throw new UserError(`${at}: base_commit ${instance.base_commit} is not in the clone ${git.dir} (fetch it there)`);
  });
  const short = base.slice(0, 12);
  const tree = await git.tree(base);
  const blobs = await git.blobs(tree.filter((e) => e.kind !== 'submodule').map((e) => e.sha));
  const byPath = new Map(tree.map((e) => [e.path, blobs.get(e.sha)]));
  const tests = await applyPatchTo(instance.test_patch, (p) => byPath.get(p), `${at}: test_patch`);
  const deleted = tests.paths.filter((p) => p.deleted).map((p) => p.path);
  if (deleted.length > 0) throw new UserError(`${at}: test_patch deletes ${deleted.join(', ')}; hidden tests can add and change files, not remove them`);
  const code = await applyPatchTo(instance.patch, (p) => byPath.get(p), `${at}: patch`);
  const runner = runnerOf(instance, at, parsed, tree.map((e) => e.path), code.paths.map((p) => p.path), git);
  const hidden = [...tests.post.keys()];
  const setup = options.setup !== undefined ? options.setup : runner.setup;
  const command = options.test ?? testCommand(runner.format, hidden, byPath.get('package.json'));
  const id = idOf(instance.instance_id);
  const manifest = {
    schemaVersion: 1,
    kind: options.kind ?? 'bug',
    language: runner.language,
    summary: summaryOf(instance.problem_statement, instance.instance_id),
    setup,
    test: { command, format: runner.format },
    protectedPaths: [],
    origin: { kind: 'swebench', repo: `github.com/${instance.repo}`, commit: base, id: instance.instance_id, expected: { failToPass: instance.FAIL_TO_PASS, passToPass: instance.PASS_TO_PASS } },
  };
  const { taskDir } = await writeTaskFolder({
    suiteDir: options.suiteDir,
    id,
    manifest,
    repo: treeFiles(tree, blobs, short),
    orders: [{ prompt: instance.problem_statement.endsWith('\n') ? instance.problem_statement : `${instance.problem_statement}\n`, gold: instance.patch, hidden: tests.post }],
    suiteDescription: 'Tasks imported from SWE-bench instances.',
  });
  return { instanceId: instance.instance_id, where, written: true, id, taskDir, format: runner.format, command, setup, hidden };
}

async function findClone(repos: string, repo: string, at: string): Promise<string> {
  const [owner, name] = repo.split('/') as [string, string];
  const tried = [`${owner}__${name}`, name, path.join(owner, name)].map((p) => path.join(repos, p));
  for (const dir of tried) if (await exists(path.join(dir, '.git'))) return dir;
  throw new UserError(`${at}: no git clone of ${repo} under --repos ${repos} (expected one of ${tried.join(', ')})`);
}

const SUPPORTED = `bakeoff runs and reports on ${Object.keys(PARSER_FORMATS).join(', ')} (the log parsers whose runners it has)`;

/** The format the instance's log parser maps to; undefined when it names none; UserError naming a parser bakeoff has no runner for. */
function parserFormat(instance: SwebenchInstance, at: string): ReportFormat | undefined {
  const parser = instance.log_parser ?? REPO_PARSERS[instance.repo];
  if (parser === undefined) return undefined;
  const name = parser.replace(/^parse_log_/, '');
  const format = PARSER_FORMATS[name];
  if (!format) throw new UserError(`${at}: log_parser parse_log_${name} is not supported: ${SUPPORTED}`);
  return format;
}

function runnerOf(
  instance: SwebenchInstance,
  at: string,
  parsed: ReportFormat | undefined,
  paths: readonly string[],
  changed: readonly string[],
  git: GitRepo,
): { format: ReportFormat; language: 'js' | 'ts' | 'python' | 'rust'; setup: string | null } {
  const inferred = inferTask({ paths: new Set(paths), packageJson: null, changedCode: changed });
  const language = inferred.language?.value;
  if (!language) throw new UserError(`${at}: the patch changes no JavaScript, TypeScript, Python or Rust file and the repository has no manifest bakeoff knows (${git.dir})`);
  const format = parsed ?? inferred.test?.format;
  if (!format) throw new UserError(`${at}: no log_parser, and bakeoff cannot tell the repository's test runner: ${SUPPORTED}; give --test and add log_parser to the instance`);
  if (format === 'pytest') {
    const odd = [...instance.FAIL_TO_PASS, ...instance.PASS_TO_PASS].filter((t) => !t.includes('::') || /^\S+ \(.+\)$/.test(t));
    if (odd.length > 0) throw new UserError(`${at}: FAIL_TO_PASS/PASS_TO_PASS hold ids that are not pytest node ids (${odd.slice(0, 2).join(', ')}): they come from another log parser (parse_log_django, parse_log_sympy), which bakeoff does not support`);
  }
  const setup = language === 'rust' ? 'cargo build --tests --offline' : language === 'python' ? null : paths.includes('package-lock.json') ? 'npm ci' : paths.includes('yarn.lock') ? 'yarn install --frozen-lockfile' : 'npm install --no-audit --no-fund';
  return { format, language, setup };
}

function testCommand(format: ReportFormat, files: readonly string[], packageJson: Buffer | undefined): string {
  const args = files.map(shellWord).join(' ');
  switch (format) {
    case 'tap':
      return `${tapProducer(packageJson)} ${args}`.trim();
    case 'pytest':
      return `python -m pytest -q ${files.filter((f) => f.endsWith('.py')).map(shellWord).join(' ')}`.trim();
    case 'jest':
      return `npx jest ${args}`.trim();
    case 'vitest':
      return `npx vitest run ${args}`.trim();
    default:
      return 'cargo test';
  }
}

/** The TAP producer of a JavaScript repository (SWE-bench's parse_log_tap reads any): tape, node-tap, else node:test. */
function tapProducer(packageJson: Buffer | undefined): string {
  let deps: Record<string, unknown> = {};
  try {
    const pkg = JSON.parse(packageJson?.toString('utf8') ?? '{}') as { dependencies?: object; devDependencies?: object };
    deps = { ...pkg.dependencies, ...pkg.devDependencies };
  } catch {
    // not JSON: node:test
  }
  if ('tape' in deps) return 'npx tape';
  if ('tap' in deps) return 'npx tap --reporter=tap --disable-coverage';
  return 'node --test --test-reporter=tap';
}

/** A path as a shell word: as it is when it needs no quotes. */
function shellWord(file: string): string {
  return /^[\w./@%+=:,-]+$/.test(file) ? file : quoteShellArg(file);
}

/** `marshmallow-code__marshmallow-1359` stays as it is; ids with other characters are slugged. */
function idOf(instanceId: string): string {
  const lower = instanceId.toLowerCase();
  return ID_PATTERN.test(lower) ? lower : slugOf(instanceId);
}

function summaryOf(problem: string, instanceId: string): string {
  const line = problem.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? `SWE-bench instance ${instanceId}`;
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}

/** `import swebench` in the registry: instances (`source`) with the clones under `repos`. */
export const swebenchImporter: Importer<Omit<ImportSwebenchOptions, 'source' | 'suiteDir'>> = {
  reads: 'SWE-bench instances: a JSONL file, a v5 task repo (sweb.yaml) or one v5 task folder, with the clones under `repos`',
  importTasks: async (request) =>
    (await importSwebench(request)).map((r) => (r.written ? { item: r.instanceId, written: true, id: r.id, taskDir: r.taskDir } : { item: r.instanceId, written: false, reason: r.reason })),
};
