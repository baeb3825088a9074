import type { ReportFormat } from '../runners/index.js';
import { inferPython } from './infer-python.js';
import { droppedNote, jestArgsOf, joinWords, mochaArgsOf, scriptRunnerCall, vitestArgsOf, type RunnerArgs } from './runner-args.js';

/** What the repository at the parent commit suggests; every guess says what it came from. */
export interface InferredTask {
  readonly language: { readonly value: 'js' | 'ts' | 'python' | 'rust'; readonly why: string } | null;
  readonly setup: { readonly value: string | null; readonly why: string };
  readonly test: { readonly command: string; readonly format: ReportFormat; readonly why: string } | null;
}

export interface RepoFacts {
  /** Every path of the tree at the parent commit. */
  readonly paths: ReadonlySet<string>;
  /** The root package.json, parsed; null when absent or not JSON. */
  readonly packageJson: { readonly packageManager?: string; readonly scripts?: Record<string, string>; readonly dependencies?: Record<string, string>; readonly devDependencies?: Record<string, string> } | null;
  /** Paths the change (gold) touches, for the language of the code. */
  readonly changedCode: readonly string[];
  /** Text of the root files the guesses read (infer-python.ts PYTHON_FILES, LOCK_FILES), when present. */
  readonly texts?: ReadonlyMap<string, string>;
}

/** Root lockfiles whose text the package-manager guess reads (for the version of pnpm or yarn). */
export const LOCK_FILES = ['pnpm-lock.yaml', 'yarn.lock'] as const;

const EXTENSIONS: readonly [RegExp, 'js' | 'ts' | 'python' | 'rust'][] = [
  [/\.[cm]?tsx?$/, 'ts'],
  [/\.[cm]?jsx?$/, 'js'],
  [/\.py$/, 'python'],
  [/\.rs$/, 'rust'],
];

/** A task language by file extension, or null for any other file (docs, lockfiles, data). */
export function languageOfPath(file: string): 'js' | 'ts' | 'python' | 'rust' | null {
  return EXTENSIONS.find(([re]) => re.test(file))?.[1] ?? null;
}

/**
 * The language (from the changed code's file extensions, else the root manifests), the setup
 * command (from the lockfile or manifest; for Python the requirements its manifests declare for
 * tests) and the test command and format (from the test runner the manifest names; for Python
 * tox.ini's commands or pytest's configuration). Pure: the caller prints the guesses for the
 * author to confirm.
 */
export function inferTask(facts: RepoFacts): InferredTask {
  const language = inferLanguage(facts);
  const lang = language?.value ?? null;
  if (lang === 'python') {
    const python = inferPython({ paths: facts.paths, texts: facts.texts ?? new Map() });
    return { language, setup: python.setup, test: { ...python.test, format: 'pytest' } };
  }
  return { language, setup: inferSetup(facts, lang), test: inferTest(facts, lang) };
}

function inferLanguage(facts: RepoFacts): InferredTask['language'] {
  const counts = new Map<string, number>();
  for (const file of facts.changedCode) {
    const language = languageOfPath(file);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (top) return { value: top[0] as 'js' | 'ts' | 'python' | 'rust', why: `the changed code is ${top[0]} (${top[1]} of ${facts.changedCode.length} files)` };
  if (facts.paths.has('Cargo.toml')) return { value: 'rust', why: 'Cargo.toml at the root' };
  for (const f of ['pyproject.toml', 'setup.py', 'setup.cfg']) if (facts.paths.has(f)) return { value: 'python', why: `${f} at the root` };
  if (facts.paths.has('tsconfig.json')) return { value: 'ts', why: 'tsconfig.json at the root' };
  if (facts.paths.has('package.json')) return { value: 'js', why: 'package.json at the root' };
  return null;
}

function inferSetup(facts: RepoFacts, lang: string | null): InferredTask['setup'] {
  if (lang === 'js' || lang === 'ts') {
    const manager = packageManagerSetup(facts);
    if (manager) return manager;
    const deps = { ...facts.packageJson?.dependencies, ...facts.packageJson?.devDependencies };
    if (Object.keys(deps).length > 0) return { value: 'npm install --no-audit --no-fund', why: 'package.json dependencies without a lockfile (versions may drift: commit a lockfile)' };
    return { value: null, why: 'no dependencies in package.json' };
  }
  if (lang === 'rust') return { value: 'cargo build --tests --offline', why: 'Cargo.toml (builds the tests once, offline, so grading runs compile nothing new)' };
  return { value: null, why: 'no manifest found' };
}

function inferTest(facts: RepoFacts, lang: string | null): InferredTask['test'] {
  if (lang === 'js' || lang === 'ts') {
    const deps = { ...facts.packageJson?.dependencies, ...facts.packageJson?.devDependencies };
    const scripts = facts.packageJson?.scripts ?? {};
    const script = scripts['test'] ?? '';
    if ('vitest' in deps) return runnerTest(scripts, { name: 'vitest', command: 'npx vitest run', format: 'vitest', args: vitestArgsOf });
    if ('jest' in deps) return runnerTest(scripts, { name: 'jest', command: 'npx jest', format: 'jest', args: jestArgsOf });
    if ('mocha' in deps) return runnerTest(scripts, { name: 'mocha', command: 'npx mocha', format: 'mocha', args: mochaArgsOf, bin: /(^|\/)_?mocha$/ });
    if (/\bnode\b.*--test\b/.test(script)) return { command: script.trim(), format: 'node-test', why: 'the test script runs node --test' };
    if ('tape' in deps) return { command: "npx tape 'test/**/*.js'", format: 'tap', why: 'tape in package.json (its TAP output, test by test)' };
    return null;
  }
  if (lang === 'rust') return { command: 'cargo test', format: 'cargo', why: 'Cargo.toml' };
  return null;
}

/** A JS runner bakeoff runs through npx, and how its arguments in a package script are read. */
interface JsRunner {
  readonly name: string;
  readonly command: string;
  readonly format: ReportFormat;
  readonly args: (words: readonly string[]) => RunnerArgs;
  /** The runner's executable in a script (default: `name` itself, or a path ending in it). */
  readonly bin?: RegExp;
}

/**
 * The runner with the options of the package script that runs it (the `test` script, or one it
 * runs by name) that change what the tests do — a config file, a root folder, mocha's
 * `--check-leaks`; the reporter, coverage, watch mode and options that cut the run short are
 * left out and named.
 */
function runnerTest(scripts: Readonly<Record<string, string>>, runner: JsRunner): NonNullable<InferredTask['test']> {
  const bin = runner.bin ?? new RegExp(`(^|/)${runner.name}$`);
  const call = scriptRunnerCall(scripts, 'test', (w) => bin.test(w));
  if (call === null) return { command: runner.command, format: runner.format, why: `${runner.name} in package.json` };
  const args = runner.args(call.words);
  const via = call.name === 'test' ? 'the test script' : `the test script through script ${call.name}`;
  return { command: [runner.command, ...(args.kept.length > 0 ? [joinWords(args.kept)] : [])].join(' '), format: runner.format, why: `${via} runs ${runner.name}: ${call.script}${droppedNote(args)}` };
}

/**
 * The install command of the package manager the repository names (package.json
 * `packageManager`, else its lockfile), run through `npx --yes <pm>@<version>` (yarn 2+ from
 * @yarnpkg/cli-dist, the package its releases are published in), so it runs on a machine without
 * pnpm or yarn installed, from the npm registry alone (corepack fetches yarn 2+ from
 * repo.yarnpkg.com, which a machine that reaches only a registry mirror cannot): setup has the network. The version is the one `packageManager` pins, else the major the
 * lockfile format belongs to. Null for a repository with none of these.
 */
function packageManagerSetup(facts: RepoFacts): InferredTask['setup'] | null {
  const pinned = /^(npm|pnpm|yarn)@(\d[^+\s]*)/.exec(facts.packageJson?.packageManager ?? '');
  const has = (file: string) => facts.paths.has(file);
  const why = (lock: string) => (pinned ? `package.json packageManager ${facts.packageJson!.packageManager!.split('+')[0]}${has(lock) ? ` and ${lock}` : ''}` : lock);
  if (pinned?.[1] === 'npm' || (!pinned && has('package-lock.json'))) {
    return has('package-lock.json') ? { value: 'npm ci', why: why('package-lock.json') } : null;
  }
  if (pinned?.[1] === 'pnpm' || (!pinned && has('pnpm-lock.yaml'))) {
    const version = pinned?.[2] ?? pnpmOfLockfile(facts.texts?.get('pnpm-lock.yaml'));
    const frozen = has('pnpm-lock.yaml') ? ' --frozen-lockfile' : '';
    return { value: `npx --yes pnpm@${version} install${frozen}`, why: `${why('pnpm-lock.yaml')} (pnpm ${version} through npx: the machine need not have pnpm)` };
  }
  if (pinned?.[1] === 'yarn' || (!pinned && has('yarn.lock'))) {
    const berry = pinned ? Number(pinned[2]!.split('.')[0]) >= 2 : /^__metadata:/m.test(facts.texts?.get('yarn.lock') ?? '');
    const frozen = has('yarn.lock') ? (berry ? ' --immutable' : ' --frozen-lockfile') : '';
    const version = pinned?.[2] ?? (berry ? '4' : '1');
    const command = berry ? `npx --yes -p @yarnpkg/cli-dist@${version} yarn install${frozen}` : `npx --yes yarn@${version} install${frozen}`;
    return { value: command, why: `${why('yarn.lock')} (yarn ${version} through npx: the machine need not have yarn)` };
  }
  return null;
}

/** The pnpm major that writes a lockfile of this `lockfileVersion` (9.0: pnpm 9, 6.x: pnpm 8, 5.4: pnpm 7). */
function pnpmOfLockfile(text: string | undefined): string {
  const version = /^lockfileVersion:\s*'?([\d.]+)/m.exec(text ?? '')?.[1];
  if (version === undefined) return '9';
  const major = Number(version.split('.')[0]);
  return major >= 9 ? String(major) : major === 6 ? '8' : version === '5.4' ? '7' : '6';
}
