import { quoteShellArg } from '../util/index.js';

/*
 * A repository's own test command (a tox, nox or Makefile line, a package.json script) read as
 * a runner and its arguments, for a guess that runs under bakeoff: options that change what the
 * tests do are kept (mocha's `--check-leaks`, pytest's `-p`, `--doctest-modules`), options
 * bakeoff sets itself or that need plugins the machine may lack are left out with their values
 * (`--cov-report term-missing` drops both words), tox substitutions (`{envtmpdir}`) are left out
 * with the option they are the value of, and options that cut a run short (`--bail`, `-x`) are
 * left out and named: admission needs every test's result.
 */

/** A runner's arguments as kept, and what was left out, each with its reason. */
export interface RunnerArgs {
  readonly kept: readonly string[];
  readonly dropped: readonly { readonly words: string; readonly why: string }[];
}

interface OptionTable {
  /** Options that take a value as the next word (long, and short without one attached). */
  readonly takesValue: ReadonlySet<string>;
  /** Options whose value is optional (argparse `nargs='?'`): the next word is theirs unless it is an option. */
  readonly mayTakeValue?: ReadonlySet<string>;
  /** Options outside both sets that may take a value, by their name (vitest's dotted options). */
  readonly valued?: (name: string) => boolean;
  /** Option name → why it is left out. */
  readonly drop: (name: string) => string | null;
}

const BAIL = 'it stops the run at the first failure, and admission needs every test\'s result';

const PYTEST: OptionTable = {
  takesValue: new Set([
    '-k', '-m', '-p', '-c', '-o', '-r', '-n', '-W', '--maxfail', '--tb', '--rootdir', '--basetemp', '--confcutdir', '--ignore', '--ignore-glob', '--deselect',
    '--junitxml', '--junit-xml', '--junit-prefix', '--log-level', '--log-format', '--log-file', '--log-file-level', '--log-cli-level', '--durations',
    '--durations-min', '--import-mode', '--capture', '--cov-report', '--cov-config', '--cov-fail-under', '--cov-context', '--numprocesses', '--dist',
    '--maxprocesses', '--timeout', '--pythonwarnings', '--color', '--doctest-glob', '--override-ini', '--html', '--css', '--config-file', '--show-capture',
  ]),
  mayTakeValue: new Set(['--cov']),
  drop: (name) => {
    if (/^--(no-)?cov/.test(name)) return 'coverage: a plugin the machine may lack';
    if (/^--junit/.test(name) || name === '--html' || name === '--css' || name === '--self-contained-html') return 'a report file: bakeoff writes its own';
    if (['-n', '--numprocesses', '--dist', '--maxprocesses'].includes(name)) return 'xdist workers: a plugin the machine may lack';
    if (['-q', '--quiet'].includes(name)) return 'bakeoff adds -q';
    if (['-x', '--exitfirst', '--maxfail', '--sw', '--stepwise', '--lf', '--last-failed', '--pdb'].includes(name)) return BAIL;
    return null;
  },
};

const MOCHA: OptionTable = {
  takesValue: new Set([
    '--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--ui', '-u', '--require', '-r', '--timeout', '-t', '--slow', '-s', '--grep',
    '-g', '--fgrep', '-f', '--file', '--extension', '--spec', '--ignore', '--exclude', '--config', '--package', '--jobs', '-j', '--retries',
    '--node-option', '-n', '--import', '--watch-files', '--watch-ignore',
  ]),
  drop: (name) => {
    if (/^(--reporter|-R$|-O$)/.test(name)) return 'the reporter: bakeoff sets its own';
    if (/^(--watch|-w$)/.test(name)) return 'watch mode';
    if (['--bail', '-b'].includes(name)) return BAIL;
    return null;
  },
};

const SNAPSHOTS = 'it rewrites the snapshots, so a snapshot test would pass whatever the code does';
const PART = 'it runs only part of the tests, and admission needs them all';

const VITEST: OptionTable = {
  takesValue: new Set([
    '--config', '-c', '--root', '-r', '--dir', '--environment', '--pool', '--project', '--reporter', '--outputFile', '--mode', '--testNamePattern', '-t',
    '--testTimeout', '--hookTimeout', '--teardownTimeout', '--shard', '--retry', '--maxWorkers', '--minWorkers', '--bail', '--exclude', '--workspace',
    '--maxConcurrency', '--diff', '--related',
  ]),
  mayTakeValue: new Set(['--changed', '--silent']),
  // `--coverage.reporter text`, `--sequence.seed 1`: a dotted option takes the next word unless it is an option
  valued: (name) => name.includes('.'),
  drop: (name) => {
    if (/^--coverage/.test(name)) return 'coverage: a provider the machine may lack';
    if (['--reporter', '--outputFile'].includes(name)) return 'the reporter: bakeoff sets its own';
    if (['--watch', '-w', '--ui', '--open', '--standalone', '--api'].includes(name) || name.startsWith('--api.') || name.startsWith('--browser.open')) return 'watch mode or its UI';
    if (['--update', '-u'].includes(name)) return SNAPSHOTS;
    if (['--bail'].includes(name)) return BAIL;
    if (['--changed', '--related', '--shard'].includes(name)) return PART;
    return null;
  },
};

const JEST: OptionTable = {
  takesValue: new Set([
    '--config', '-c', '--rootDir', '--roots', '--testMatch', '--testPathPattern', '--testPathPatterns', '--testPathIgnorePatterns', '--testRegex',
    '--selectProjects', '--ignoreProjects', '--projects', '--env', '--testEnvironment', '--maxWorkers', '-w', '--reporters', '--outputFile',
    '--coverageReporters', '--coverageDirectory', '--collectCoverageFrom', '--coverageProvider', '--coverageThreshold', '--testResultsProcessor',
    '--testNamePattern', '-t', '--testTimeout', '--setupFiles', '--setupFilesAfterEnv', '--shard', '--changedSince', '--seed', '--maxConcurrency',
    '--moduleDirectories', '--modulePaths', '--testRunner', '--testSequencer', '--cacheDirectory', '--filter', '--globals', '--transform',
  ]),
  drop: (name) => {
    if (/^--(collectCoverage|coverage)/.test(name)) return 'coverage: a provider the machine may lack';
    if (['--json', '--reporters', '--outputFile', '--testResultsProcessor', '--useStderr'].includes(name)) return 'the report: bakeoff writes its own';
    if (['--watch', '--watchAll'].includes(name)) return 'watch mode';
    if (['--updateSnapshot', '-u'].includes(name)) return SNAPSHOTS;
    if (['--bail', '-b'].includes(name)) return BAIL;
    if (['--onlyChanged', '-o', '--changedSince', '--lastCommit', '--shard', '--onlyFailures', '-f', '--findRelatedTests', '--listTests'].includes(name)) return PART;
    return null;
  },
};

/** pytest's arguments (after `pytest` or `python -m pytest`) as a guess keeps them. */
export function pytestArgsOf(words: readonly string[]): RunnerArgs {
  return argsOf(words, PYTEST);
}

/** mocha's arguments (after `mocha` or `_mocha`) as a guess keeps them. */
export function mochaArgsOf(words: readonly string[]): RunnerArgs {
  return argsOf(words, MOCHA);
}

/**
 * vitest's arguments (after `vitest`) as a guess keeps them, without its command word: the
 * guess runs `vitest run` (`run`, `watch`, `dev` and a bare `vitest` all run the same tests
 * once under it; `related` runs part of them and is named as left out).
 */
export function vitestArgsOf(words: readonly string[]): RunnerArgs {
  const [first, ...rest] = words;
  if (first === 'run' || first === 'watch' || first === 'dev') return argsOf(rest, VITEST);
  if (first === 'related') return withDropped(argsOf([], VITEST), { words: words.join(' '), why: PART });
  const args = argsOf(words, VITEST);
  const run = args.kept.indexOf('--run');
  return run < 0 ? args : { ...args, kept: args.kept.filter((_, i) => i !== run) };
}

/** jest's arguments (after `jest`) as a guess keeps them. */
export function jestArgsOf(words: readonly string[]): RunnerArgs {
  return argsOf(words, JEST);
}

function withDropped(args: RunnerArgs, dropped: RunnerArgs['dropped'][number]): RunnerArgs {
  return { kept: args.kept, dropped: [...args.dropped, dropped] };
}

function argsOf(words: readonly string[], table: OptionTable): RunnerArgs {
  const kept: string[] = [];
  const dropped: { words: string; why: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') continue;
    if (!word.startsWith('-') || word === '-') {
      if (isSubstitution(word)) dropped.push({ words: word, why: 'a tox substitution' });
      else kept.push(word);
      continue;
    }
    const name = word.startsWith('--') ? word.split('=')[0]! : word.slice(0, 2);
    const attached = word.startsWith('--') ? word.includes('=') : word.length > 2;
    const shortFlags = !word.startsWith('--') && attached && !table.takesValue.has(name);
    if (shortFlags) {
      // `-vx`: several flags in one word; each is judged alone
      const flags = [...word.slice(1)].map((f) => `-${f}`);
      const out = flags.filter((f) => table.drop(f) === null);
      for (const f of flags.filter((f) => table.drop(f) !== null)) dropped.push({ words: f, why: table.drop(f)! });
      if (out.length > 0) kept.push(`-${out.map((f) => f.slice(1)).join('')}`);
      continue;
    }
    const next = words[i + 1];
    const optional = table.mayTakeValue?.has(name) === true || table.valued?.(name) === true;
    const takes = table.takesValue.has(name) || (optional && next !== undefined && !next.startsWith('-'));
    const value = !attached && takes && next !== undefined ? words[++i]! : null;
    const option = value === null ? [word] : [word, value];
    const why = table.drop(name) ?? (option.some(isSubstitution) ? 'its value is a tox substitution' : null);
    if (why !== null) dropped.push({ words: option.join(' '), why });
    else kept.push(...option);
  }
  return { kept, dropped };
}

function isSubstitution(word: string): boolean {
  return /\{[^}]*\}/.test(word);
}

/**
 * A tox command line with the substitutions that have a meaning outside tox replaced:
 * `{toxinidir}` and `{tox_root}` → `.`, `{posargs:DEFAULT}` → its default, `{posargs}` and the
 * old `[]` → nothing. Others (`{envtmpdir}`, `{envpython}`) are left for the arguments' reader to drop.
 */
export function substituteTox(line: string): string {
  return line
    .replace(/\{(toxinidir|tox_root)\}/g, '.')
    .replace(/\{posargs(?::([^}]*))?\}/g, (_, fallback: string | undefined) => fallback ?? '')
    .replace(/(^|\s)\[\](?=\s|$)/g, '$1');
}

/**
 * A command line split into words as `sh` would for plain words: whitespace separates, single
 * and double quotes group (and are removed), a backslash escapes the next character.
 */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (ch === "'") {
      const end = line.indexOf(ch, i + 1);
      word = (word ?? '') + line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    } else if (ch === '"') {
      word = word ?? '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && /["\\$`]/.test(line[i + 1] ?? '')) i++;
        word += line[i];
      }
    } else if (ch === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else word = (word ?? '') + ch;
  }
  if (word !== null) words.push(word);
  return words;
}

/** Words back into a command line, quoting those the shell would split or expand. */
export function joinWords(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : quoteShellArg(w))).join(' ');
}

/** What was left out, for a guess's printed why: `left out --bail (it stops …); --cov=x (coverage …)`. */
export function droppedNote(args: RunnerArgs): string {
  return args.dropped.length === 0 ? '' : `; left out ${args.dropped.map((d) => `${d.words} (${d.why})`).join(', ')}`;
}

/**
 * The runner's part of a script: the first `&&`/`||`/`;`-separated command that runs it (after
 * wrappers such as `nyc` or `cross-env X=1`), and the words after it. Null when none does.
 */
export function runnerCall(script: string, isRunner: (word: string) => boolean): readonly string[] | null {
  return scriptRunnerCall({ test: script }, 'test', isRunner)?.words ?? null;
}

/** The package script that runs a runner, and the runner's words in it. */
export interface ScriptCall {
  /** The script's name (`test`, or `test:unit` that `test` runs through `npm run test:unit`). */
  readonly name: string;
  readonly script: string;
  readonly words: readonly string[];
}

/**
 * The runner's part of package script `name`, as {@link runnerCall} finds it, following the
 * scripts it runs by name (`npm run test:unit`, `npm test`, `pnpm test:unit`, `yarn run x`,
 * `run-s x`) — each script once. Null when none of them runs the runner.
 */
export function scriptRunnerCall(scripts: Readonly<Record<string, string>>, name: string, isRunner: (word: string) => boolean, seen: Set<string> = new Set()): ScriptCall | null {
  const script = scripts[name];
  if (script === undefined || seen.has(name)) return null;
  seen.add(name);
  for (const part of script.split(/&&|\|\||;/)) {
    const words = splitWords(part);
    const at = words.findIndex(isRunner);
    if (at >= 0) return { name, script, words: words.slice(at + 1) };
    for (const next of scriptsRun(words)) {
      const call = scriptRunnerCall(scripts, next, isRunner, seen);
      if (call !== null) return call;
    }
  }
  return null;
}

/** The package scripts a command runs by name: `npm run x`, `npm test`, `pnpm [run] x`, `yarn [run] x`, `run-s x y`. */
function scriptsRun(words: readonly string[]): string[] {
  const [tool, ...rest] = words.filter((w) => !w.startsWith('-'));
  if (tool === 'npm') return rest[0] === 'run' || rest[0] === 'run-script' ? rest.slice(1, 2) : rest[0] === 'test' || rest[0] === 't' ? ['test'] : [];
  if (tool === 'pnpm' || tool === 'yarn' || tool === 'bun') return rest[0] === 'run' ? rest.slice(1, 2) : rest.slice(0, 1);
  if (tool === 'run-s' || tool === 'run-p' || tool === 'npm-run-all') return rest;
  return [];
}
