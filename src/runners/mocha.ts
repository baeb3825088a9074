import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { InstrumentedCommand, ParsedReport, TestResult } from './types.js';
import { mergeTestResults } from './merge-test-results.js';
import { MOCHA_CONFIG, MOCHA_TEST_FILES } from './js-config.js';
import { numberRepeats } from './number-repeats.js';
import { parseJsonLines } from './parse-json-lines.js';
import { reportFileRunner } from './report-file-runner.js';
import { toRepoRelativePath } from './repo-root.js';
import { copyReporter } from './reporters-dir.js';
import { mochaTripwires } from './tripwire-sources.js';
import { quoteShellArg } from '../util/index.js';

/** Written by `src/runners/reporters/mocha-reporter.cjs`. */
const REPORT_FILE = 'mocha.jsonl';
const REPORTER_FILE = 'mocha-reporter.cjs';
const UNKNOWN_FILE = '<unknown file>';

/** One line of the reporter's report. */
const MochaReportLine = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('test'),
    file: z.string().nullable(),
    path: z.array(z.string()).min(1),
    status: z.enum(['pass', 'fail', 'skip']),
    message: z.string().optional(),
  }),
  z.object({ event: z.literal('hook'), file: z.string().nullable(), path: z.array(z.string()).min(1), message: z.string().optional() }),
  z.object({ event: z.literal('end'), tests: z.number(), passes: z.number(), failures: z.number(), pending: z.number() }),
]);
type MochaReportLine = z.infer<typeof MochaReportLine>;

/**
 * mocha through bakeoff's own reporter (`--reporter <file> --reporter-option output=<file>`),
 * which writes JSON lines to a file of the report folder, never to stdout (where the tests
 * print), and keeps mocha's spec reporter on stdout for the log. Ids are
 * `<file relative to the repo root>::<describe> > … > <title>`, e.g.
 * `test/dates.test.js::format > keeps the zone`; a second test of the same title in the same
 * file is `… #2`. A hook that fails (`before`, `afterEach`, …) is an error under its own title
 * (`group > "before all" hook for "first test"`); the tests it kept from running are missing.
 * Configuration: `.mocharc.*` in any folder and the `mocha` key of package.json are protected,
 * and so are the files the prepared repo's configuration loads (`require`, `file`, `ui`): see
 * mocha-loaded-files.ts and docs/runner-configuration.md.
 */
export const mochaRunner = reportFileRunner({
  format: 'mocha',
  testFiles: MOCHA_TEST_FILES,
  configFiles: MOCHA_CONFIG,
  tripwireSource: mochaTripwires,
  reportFile: REPORT_FILE,
  what: 'mocha report',
  addReporter(command, reportDir, report, configSource): InstrumentedCommand {
    const reporter = copyReporter(REPORTER_FILE, path.join(reportDir, REPORTER_FILE));
    // mocha before 6 refuses --no-bail and --reporter-option: the reporter reads its file from the environment and turns bail off itself
    if (isOldMocha(configSource)) return { command: `${command} --reporter ${quoteShellArg(reporter)}`, env: { BAKEOFF_MOCHA_REPORT: report, BAKEOFF_MOCHA_NO_BAIL: '1' } };
    // --no-bail: a `bail` of the command or the configuration would end the run at the first failure — a must-fail tripwire — and leave the tests after it unreported
    return { command: `${command} --no-bail --reporter ${quoteShellArg(reporter)} --reporter-option ${quoteShellArg(`output=${report}`)}`, env: {} };
  },
  parseReport: (text, roots) => parseMochaReport(text, roots),
});

/**
 * Whether the prepared repo's mocha is older than 6 (commander's options: no `--no-bail`, no
 * `--reporter-option`, "error: unknown option" for either; 1.x has no reporter options at all).
 * Unknown (no prepared repo, no mocha in its node_modules): false, the options of today's mocha.
 */
export function isOldMocha(configSource: string | undefined): boolean {
  if (configSource === undefined) return false;
  try {
    const { version } = JSON.parse(readFileSync(path.join(configSource, 'node_modules', 'mocha', 'package.json'), 'utf8')) as { version?: unknown };
    const major = typeof version === 'string' ? Number(version.split('.')[0]) : NaN;
    return Number.isInteger(major) && major < 6;
  } catch {
    return false;
  }
}

/**
 * Maps the reporter's lines to results: pass, fail, skip (pending, `this.skip()`), and a failed
 * hook as an error. The last line must be the end line, whose counts must agree with the lines
 * before it: without it mocha died before the run ended (a test file that throws while loading
 * stops mocha before any test runs).
 */
export function parseMochaReport(text: string, roots: readonly string[]): ParsedReport {
  const { records, problems: lineProblems } = parseJsonLines(text, MochaReportLine, REPORT_FILE);
  const problems = [...lineProblems];
  const results: TestResult[] = [];
  for (const record of records) {
    if (record.event === 'end') continue;
    const file = record.file === null ? UNKNOWN_FILE : toRepoRelativePath(record.file, roots);
    const id = `${file}::${record.path.join(' > ')}`;
    const status = record.event === 'hook' ? 'error' : record.status;
    const message = status === 'pass' || status === 'skip' || record.message === undefined ? {} : { message: record.message };
    results.push({ id, status, ...message });
  }
  const end = records.at(-1);
  if (end?.event !== 'end') {
    problems.push('mocha run did not finish (no end line at the end of the report)');
  } else {
    const count = (s: string): number => results.filter((r) => r.status === s).length;
    if (end.passes !== count('pass') || end.pending !== count('skip') || end.failures !== count('fail') + count('error')) {
      problems.push(`mocha's end line counts ${end.passes} passed, ${end.failures} failed, ${end.pending} pending, but the report holds other results`);
    }
  }
  return mergeTestResults(numberRepeats(results), problems);
}
