import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { ParsedReport, TestResult, TestRunner } from './types.js';
import { mergeTestResults } from './merge-test-results.js';
import { numberRepeats } from './number-repeats.js';
import { parseJunitXml } from './parse-junit.js';
import { readReportFile } from './read-report-file.js';
import { junitTripwires } from './tripwire-sources.js';
import { readRepoRoots, recordRepoRoot } from './repo-root.js';
import { JEST_CONFIG, MOCHA_CONFIG, VITEST_CONFIG } from './js-config.js';
import { pycacheEnv } from './pytest.js';

/**
 * bakeoff cannot know which runner writes the XML, so the configuration of every runner it
 * knows is protected: pytest's files (all of them, pyproject.toml, setup.cfg and tox.ini
 * included: under junit pytest reads them from the change, with no copy given by `-c`), the
 * JavaScript runners', cargo's and nextest's.
 */
const JUNIT_CONFIG = [
  ...new Set([
    ...JEST_CONFIG,
    ...VITEST_CONFIG,
    ...MOCHA_CONFIG,
    '**/conftest.py', '**/pytest.ini', '**/.pytest.ini', '**/pytest.toml', '**/pyproject.toml', '**/setup.cfg', '**/tox.ini',
    '**/sitecustomize.py', '**/usercustomize.py', '**/*.pth',
    '**/build.rs', '**/.cargo/**', '**/.config/nextest.toml',
  ]),
];

/** Most JUnit files one grading reads (a glob over a whole tree should not read thousands). */
const MAX_FILES = 256;

/**
 * Any runner that writes JUnit XML (pytest `--junitxml`, jest-junit, mocha-junit-reporter,
 * cargo-nextest, go-junit-report …). The task's bare command writes it; task.yaml
 * `test.report` (a path or glob relative to the repo) says where. Before every graded run
 * bakeoff deletes whatever the change left there (`removeStaleReports`), so a report it reads
 * was written while the tests ran, and no report at all is a problem. Ids: see parseJunitXml.
 * The files are read from the repo, bounded and never through a symlink, and kept with the
 * test output. Tripwires go into Python test files only (a unittest class that pytest and
 * unittest runners both collect); other test files are judged by their results and the exit
 * status (docs/decisions/008).
 */
export const junitRunner: TestRunner = {
  format: 'junit',
  testFiles: ['**/test_*.py', '**/*_test.py', '**/*.{test,spec}.?(c|m)[jt]s?(x)', '**/__tests__/**/*.?(c|m)[jt]s?(x)'],
  configFiles: JUNIT_CONFIG,
  reportFiles: ['root.txt'],
  testNamePrefix: 'test_',
  tripwireSource: junitTripwires,
  // pytest's XML names a test by its dotted module and classes, and the file when the report names it
  testIds: (file, path, name) => {
    if (!file.endsWith('.py')) return [];
    const classname = [file.slice(0, -3).split('/').join('.'), ...path].join('.');
    return [`${classname}::${name}`, `${file}::${classname}::${name}`];
  },
  holdsTripwires: (_text, file) => file.endsWith('.py'),
  instrument(command, { reportDir }) {
    // a Python runner's bytecode cache (pytest's rewritten test modules) is kept out of the code's reach
    return { command: `${recordRepoRoot(reportDir)}; ${command}`, env: pycacheEnv() };
  },
  async parse({ reportDir, repoDir, report }) {
    if (report === undefined) return { tests: [], problems: ['the task names no JUnit report (task.yaml test.report)'] };
    return readJunitReports(repoDir, report, await readRepoRoots({ reportDir, repoDir }));
  },
};

/** Repo-relative files matching the `test.report` glob (a plain path matches itself), sorted. */
export async function findReports(repoDir: string, glob: string): Promise<string[]> {
  const scan = picomatch.scan(glob);
  const base = scan.isGlob ? scan.base : path.posix.dirname(glob);
  const isMatch = picomatch(glob, { dot: true });
  const found: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(repoDir, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = rel === '' || rel === '.' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') await walk(child);
      else if (isMatch(child)) found.push(child);
      if (found.length > MAX_FILES) return;
    }
  };
  await walk(base === '.' ? '' : base);
  return found.sort();
}

/** Deletes every file at `test.report` in a grading copy: a report the change left there is never read. */
export async function removeStaleReports(repoDir: string, glob: string): Promise<string[]> {
  const stale = await findReports(repoDir, glob);
  for (const rel of stale) await rm(path.join(repoDir, rel), { recursive: true, force: true });
  return stale;
}

/** Reads and parses every JUnit file at `glob` (paths in them made relative to one of `roots`). */
export async function readJunitReports(repoDir: string, glob: string, roots: readonly string[]): Promise<ParsedReport> {
  const files = await findReports(repoDir, glob);
  if (files.length === 0) return { tests: [], problems: [`no JUnit report was written at ${glob} (task.yaml test.report)`] };
  if (files.length > MAX_FILES) return { tests: [], problems: [`more than ${MAX_FILES} files match ${glob}`] };
  const tests: TestResult[] = [];
  const problems: string[] = [];
  const sources: { name: string; text: string }[] = [];
  for (const rel of files) {
    // throws ReportUnreadableError for a symlink, a FIFO, a folder, a file too big
    const text = await readReportFile(path.join(repoDir, rel));
    if (text === undefined) continue;
    sources.push({ name: rel.replace(/\//g, '__'), text });
    const parsed = parseJunitXml(text, rel, roots);
    tests.push(...parsed.tests);
    problems.push(...parsed.problems);
  }
  return { ...mergeTestResults(numberRepeats(tests), problems), sources };
}
