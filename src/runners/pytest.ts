import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ParsedReport, TestResult, TestRunner } from './types.js';
import { mergeTestResults } from './merge-test-results.js';
import { parseJsonLines } from './parse-json-lines.js';
import { parseReportFile } from './read-report-file.js';
import { copyReporter } from './reporters-dir.js';
import { pytestConfigArgs } from './pytest-config.js';
import { pythonTripwires } from './tripwire-sources.js';
import { TOOLCHAIN_FILES } from './toolchain-files.js';
import { PYTHON_BYTECODE_INSIDE, quoteShellArg } from '../util/index.js';
import { keepEnvPrefix } from './keep-env-prefix.js';

/** Written by `src/runners/reporters/bakeoff_pytest_report.py`. */
const REPORT_FILE = 'pytest.jsonl';

/** One line of the plugin's report. */
const PytestReportLine = z.union([
  z.object({
    id: z.string(),
    status: z.enum(['pass', 'fail', 'skip', 'error']),
    message: z.string().optional(),
  }),
  z.object({ session: z.literal('finished'), exitstatus: z.number().int() }),
]);

/** pytest exit statuses that mean pytest itself failed rather than the tests. */
const BROKEN_EXIT_STATUSES: Readonly<Record<number, string>> = { 3: 'internal error', 4: 'usage error' };

/**
 * pytest through bakeoff's own plugin (`-p bakeoff_pytest_report`): exact nodeids such as
 * `tests/test_dates.py::TestGroup::test_tz[utc]`. A failed setup or teardown is an error, xfail
 * and skip are skips, and a test file that fails to collect is one error under its own path.
 * Plugin autoload and the cache are off, and collection errors do not stop the session. The
 * configuration is the prepared repo's, copied out of the repo and given with `-c` (so no
 * pytest.ini, pyproject.toml, tox.ini or setup.cfg the change adds or edits is read), with
 * `--rootdir=.` so ids stay relative to the repo root; bytecode lives outside the repo
 * (PYTHONPYCACHEPREFIX), so a `.pyc` in the change is never loaded. The plugin's folder is on
 * PYTHONPATH, also when the command sets PYTHONPATH itself (keep-env-prefix.ts).
 */
export const pytestRunner: TestRunner = {
  format: 'pytest',
  testFiles: ['**/test_*.py', '**/*_test.py'],
  configFiles: ['**/conftest.py', '**/pytest.ini', '**/.pytest.ini', '**/sitecustomize.py', '**/usercustomize.py', '**/*.pth', ...TOOLCHAIN_FILES],
  reportFiles: [REPORT_FILE],
  testNamePrefix: 'test_',
  tripwireSource: pythonTripwires,
  testIds: (file, path, name) => [`${file}::${[...path, name].join('::')}`],
  instrument(command, { reportDir, configDir, configSource }) {
    // The plugin is loaded under a name the agent cannot know: `python -m pytest` puts the repo
    // root first on sys.path, so a fixed name could be shadowed by a file the agent wrote.
    const name = `bakeoff_pytest_report_${randomBytes(8).toString('hex')}`;
    const pluginDir = path.join(reportDir, 'plugin');
    mkdirSync(pluginDir, { recursive: true });
    copyReporter('bakeoff_pytest_report.py', path.join(pluginDir, `${name}.py`));
    const config = configDir !== undefined && configSource !== undefined ? pytestConfigArgs(command, configSource, configDir) : [];
    return {
      // a PYTHONPATH the command sets itself (`PYTHONPATH=src python -m pytest`) gets the plugin's folder in front
      command: [keepEnvPrefix(command, 'PYTHONPATH', '"$BAKEOFF_PYTHONPATH":'), '-p', name, '-p', 'no:cacheprovider', '--continue-on-collection-errors', ...config.map(quoteShellArg)].join(' '),
      env: {
        PYTHONPATH: pluginDir,
        BAKEOFF_PYTHONPATH: pluginDir,
        ...pycacheEnv(),
        PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
        BAKEOFF_PYTEST_REPORT: path.join(reportDir, REPORT_FILE),
      },
    };
  },
  parse: ({ reportDir }) => parseReportFile(reportDir, { reportFile: REPORT_FILE, what: 'pytest report' }, parsePytestReport),
};

/**
 * Bytecode out of the code's reach: Python (and pytest's assertion rewriting, which compiles each
 * test module and would load a cached one whose header matches the source's size and mtime)
 * reads `.pyc` files only under PYTHONPYCACHEPREFIX and writes none. The prefix is the machine's
 * toolchain bytecode, which the sandbox mounts read-only (`PYTHON_BYTECODE_INSIDE`, built by
 * bakeoff from the host's own compiled standard library and kept site-packages): it holds no
 * file for any path of the repo, so every module of the repo — hidden tests, the change — is
 * compiled from source on every run, no code that runs earlier in a grading can plant a compiled
 * module for Python to load later, and a `.pyc` the change holds next to its source is never
 * read. Only the toolchain's modules load their bytecode (an empty prefix made Python compile the
 * standard library and pytest afresh on every grading: about 0.7 s of CPU each).
 */
export function pycacheEnv(): Record<string, string> {
  return { PYTHONDONTWRITEBYTECODE: '1', PYTHONPYCACHEPREFIX: PYTHON_BYTECODE_INSIDE };
}

/**
 * Reads the plugin's JSON lines. The last line must be a session line: without it the pytest
 * process died before its session ended (a crash, `os._exit`, a kill), and tests may be missing.
 */
export function parsePytestReport(text: string): ParsedReport {
  const { records, problems } = parseJsonLines(text, PytestReportLine, REPORT_FILE);
  const results: TestResult[] = [];
  const all = [...problems];
  for (const record of records) {
    if ('id' in record) {
      results.push({ id: record.id, status: record.status, ...(record.message ? { message: record.message } : {}) });
      continue;
    }
    const broken = BROKEN_EXIT_STATUSES[record.exitstatus];
    if (broken !== undefined) all.push(`pytest ended with exit status ${record.exitstatus} (${broken})`);
  }
  const last = records.at(-1);
  if (last === undefined || !('session' in last)) {
    all.push('pytest session did not finish (no session line at the end of the report)');
  }
  return mergeTestResults(results, all);
}
