import { parse as parseToml } from 'smol-toml';
import { quoteShellArg } from '../util/index.js';
import { iniLines, readIni } from './read-ini.js';
import { droppedNote, joinWords, pytestArgsOf, splitWords, substituteTox } from './runner-args.js';

/*
 * Setup and test command guesses for a Python repository, read from its files: the packages
 * its manifests declare for tests, and how its tox.ini or pytest configuration runs the tests.
 *
 * Setup installs the declared requirements with `pip install --target .deps` and the test
 * command puts `.deps` (and `src` for a src layout) on PYTHONPATH, rather than `pip install -e
 * .[test]`: setup runs in the sandbox, where the machine's site-packages are read-only, and the
 * package itself must be imported from the repo, where the agent's change is, not from an
 * installed copy. pytest itself is left out of the list: the machine's pytest runs the tests
 * (with bakeoff's reporter plugin).
 */

/** Root files the guesses read (their text goes into RepoFacts.texts). */
export const PYTHON_FILES = ['pyproject.toml', 'setup.cfg', 'tox.ini', 'pytest.ini', 'noxfile.py', 'Makefile', ...requirementFiles()] as const;

/** Extras and dependency groups that hold a project's test requirements, in the order tried. */
const TEST_EXTRAS = ['test', 'tests', 'testing', 'dev'] as const;

function requirementFiles(): string[] {
  return ['requirements-test.txt', 'requirements-tests.txt', 'test-requirements.txt', 'requirements_test.txt', 'requirements-dev.txt', 'requirements/test.txt', 'requirements/tests.txt', 'requirements/dev.txt'];
}

export interface PythonFacts {
  readonly paths: ReadonlySet<string>;
  /** Text of the root files of PYTHON_FILES that exist. */
  readonly texts: ReadonlyMap<string, string>;
}

export interface PythonGuess {
  readonly setup: { readonly value: string | null; readonly why: string };
  readonly test: { readonly command: string; readonly why: string };
}

export function inferPython(facts: PythonFacts): PythonGuess {
  const setup = pythonSetup(facts);
  const roots = [...(srcLayout(facts.paths) ? ['src'] : []), ...(setup.value !== null ? ['.deps'] : [])];
  const env = roots.length > 0 ? `PYTHONPATH=${roots.join(':')} ` : '';
  const test = pythonTest(facts);
  const extra = roots.length > 0 ? `; PYTHONPATH ${roots.join(':')} (${[srcLayout(facts.paths) ? 'a src layout' : '', setup.value !== null ? 'what setup installs' : ''].filter(Boolean).join(', ')})` : '';
  return { setup, test: { command: `${env}${test.command}`, why: `${test.why}${extra}` } };
}

function pythonSetup(facts: PythonFacts): PythonGuess['setup'] {
  const found: { requirements: string[]; why: string }[] = [];
  const pyproject = tomlOf(facts.texts.get('pyproject.toml'));
  const project = table(pyproject?.['project']);
  const name = typeof project?.['name'] === 'string' ? normalize(project['name']) : null;
  if (project) {
    const runtime = strings(project['dependencies']);
    if (runtime.length > 0) found.push({ requirements: runtime, why: 'pyproject.toml [project] dependencies' });
    const extra = firstKey(table(project['optional-dependencies']));
    if (extra) found.push({ requirements: extra.values, why: `pyproject.toml [project.optional-dependencies] ${extra.key}` });
  }
  const group = firstKey(table(pyproject?.['dependency-groups']));
  if (group) found.push({ requirements: group.values, why: `pyproject.toml [dependency-groups] ${group.key}` });
  const cfg = facts.texts.has('setup.cfg') ? readIni(facts.texts.get('setup.cfg')!) : null;
  const cfgName = cfg?.get('metadata')?.get('name');
  const installRequires = iniLines(cfg?.get('options')?.get('install_requires'));
  if (installRequires.length > 0) found.push({ requirements: installRequires, why: 'setup.cfg [options] install_requires' });
  const extras = cfg?.get('options.extras_require');
  const cfgExtra = TEST_EXTRAS.find((k) => extras?.has(k));
  if (cfgExtra) found.push({ requirements: iniLines(extras!.get(cfgExtra)), why: `setup.cfg [options.extras_require] ${cfgExtra}` });
  const file = requirementFiles().find((f) => facts.texts.has(f));
  const own = new Set([name, cfgName ? normalize(cfgName) : null, 'pytest'].filter((n) => n !== null));
  const requirements = [...new Set(found.flatMap((f) => f.requirements).filter((r) => !own.has(requirementName(r))))];
  if (requirements.length === 0 && file === undefined) {
    return { value: null, why: 'no requirements declared (pyproject.toml, setup.cfg, requirements files): pytest from the machine' };
  }
  const args = [...requirements.map(quoteShellArg), ...(file ? ['-r', file] : [])].join(' ');
  const sources = [...found.map((f) => f.why), ...(file ? [file] : [])].join(', ');
  return { value: `python -m pip install -q --target .deps ${args}`, why: `${sources} (into .deps, on PYTHONPATH; pytest from the machine)` };
}

function pythonTest(facts: PythonFacts): { command: string; why: string } {
  const tox = facts.texts.has('tox.ini') ? readIni(facts.texts.get('tox.ini')!) : null;
  for (const line of iniLines(tox?.get('testenv')?.get('commands'))) {
    const fromTox = commandOf(splitWords(substituteTox(line)), facts.paths);
    if (fromTox) return { command: fromTox.command, why: `tox.ini [testenv] commands: ${line}${fromTox.note}` };
  }
  for (const call of noxRuns(facts.texts.get('noxfile.py'))) {
    const fromNox = commandOf(call, facts.paths);
    if (fromNox) return { command: fromNox.command, why: `noxfile.py session.run(${call.map((w) => JSON.stringify(w)).join(', ')})${fromNox.note}` };
  }
  for (const line of makeRecipe(facts.texts.get('Makefile'), 'test')) {
    const fromMake = commandOf(splitWords(line.replace(/\$\(\w+\)|\$\{\w+\}/g, '')), facts.paths);
    if (fromMake) return { command: fromMake.command, why: `Makefile target test: ${line}${fromMake.note}` };
  }
  const testpaths = pytestTestpaths(facts.texts);
  if (testpaths) return { command: 'python -m pytest -q', why: `${testpaths} (pytest collects them itself; unittest.TestCase classes too)` };
  const folder = ['tests', 'test'].find((d) => [...facts.paths].some((p) => p.startsWith(`${d}/`)));
  if (folder) return { command: `python -m pytest -q ${folder}`, why: `the ${folder}/ folder (pytest also collects unittest.TestCase classes)` };
  return { command: 'python -m pytest -q', why: 'Python (pytest also collects unittest.TestCase classes)' };
}

/**
 * A repository's test command (its words) as a bare pytest command: pytest's own arguments kept,
 * but substitutions, the options that need plugins the machine may lack or that bakeoff sets
 * itself (coverage, xdist, JUnit XML) and those that cut a run short left out with their values
 * (runner-args.ts); `python -m unittest [discover -s DIR]` becomes pytest on that folder. Null
 * for a command that runs neither.
 */
function commandOf(words: readonly string[], paths: ReadonlySet<string>): { command: string; note: string } | null {
  const start = words.findIndex((w, i) => /(^|\/)(py\.test|pytest)$/.test(w) || (w === '-m' && /^(pytest|unittest)$/.test(words[i + 1] ?? '')));
  if (start < 0) return null;
  const isModule = words[start] === '-m';
  const runner = isModule ? words[start + 1]! : 'pytest';
  const args = words.slice(start + (isModule ? 2 : 1));
  if (runner === 'unittest') {
    const s = args.indexOf('-s');
    const dir = s >= 0 ? args[s + 1] : ['tests', 'test'].find((d) => [...paths].some((p) => p.startsWith(`${d}/`)));
    return { command: `python -m pytest -q${dir ? ` ${dir}` : ''}`, note: '' };
  }
  const parsed = pytestArgsOf(args);
  return { command: ['python -m pytest -q', ...(parsed.kept.length > 0 ? [joinWords(parsed.kept)] : [])].join(' '), note: droppedNote(parsed) };
}

/** The string arguments of each `session.run(...)` in a noxfile (calls with other arguments keep their strings). */
function noxRuns(text: string | undefined): string[][] {
  if (text === undefined) return [];
  const calls: string[][] = [];
  for (const match of text.matchAll(/session\.run\(([^)]*)\)/g)) {
    calls.push([...match[1]!.matchAll(/(['"])((?:(?!\1).)*)\1/g)].map((m) => m[2]!));
  }
  return calls;
}

/** The recipe lines of a Makefile target (tab-indented lines under `target:`), without `@`/`-` prefixes. */
function makeRecipe(text: string | undefined, target: string): string[] {
  if (text === undefined) return [];
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => new RegExp(`^${target}\\s*:`).test(l));
  if (at < 0) return [];
  const recipe: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('\t')) break;
    recipe.push(line.trim().replace(/^[@-]+/, ''));
  }
  return recipe;
}

/** Where the pytest configuration names `testpaths`, in pytest's order of files. */
function pytestTestpaths(texts: ReadonlyMap<string, string>): string | null {
  const ini = (file: string, section: string): string | null => {
    if (!texts.has(file)) return null;
    const value = readIni(texts.get(file)!).get(section)?.get('testpaths');
    return value ? `testpaths ${value.replace(/\s+/g, ' ').trim()} in ${file} [${section}]` : null;
  };
  const pyproject = tomlOf(texts.get('pyproject.toml'));
  const options = table(table(table(pyproject?.['tool'])?.['pytest'])?.['ini_options']);
  const fromToml = options?.['testpaths'];
  return (
    ini('pytest.ini', 'pytest') ??
    (fromToml !== undefined ? `testpaths ${strings(fromToml).join(' ') || String(fromToml)} in pyproject.toml [tool.pytest.ini_options]` : null) ??
    ini('tox.ini', 'pytest') ??
    ini('setup.cfg', 'tool:pytest')
  );
}

function srcLayout(paths: ReadonlySet<string>): boolean {
  return [...paths].some((p) => /^src\/[^/]+\/__init__\.py$/.test(p) || /^src\/[^/]+\.py$/.test(p));
}

/** The first of TEST_EXTRAS in a table of requirement lists, with its string entries. */
function firstKey(t: Record<string, unknown> | null): { key: string; values: string[] } | null {
  const key = TEST_EXTRAS.find((k) => t?.[k] !== undefined);
  return key ? { key, values: strings(t![key]) } : null;
}

/** A requirement's distribution name, normalized (PEP 503): `Foo_Bar[x]>=1; …` → `foo-bar`. */
function requirementName(requirement: string): string {
  return normalize(/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1] ?? requirement);
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

function tomlOf(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function table(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
