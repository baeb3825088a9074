import path from 'node:path';
import { z } from 'zod';
import type { ParsedReport, TestResult, TestStatus } from './types.js';
import { mergeTestResults } from './merge-test-results.js';
import { numberRepeats } from './number-repeats.js';
import { parseJsonLines } from './parse-json-lines.js';
import { reportFileRunner } from './report-file-runner.js';
import { toRepoRelativePath } from './repo-root.js';
import { copyReporter } from './reporters-dir.js';
import { keepEnvPrefix } from './keep-env-prefix.js';
import { quoteNodeOption } from '../util/index.js';
import { JS_SHARED_CONFIG, NODE_TEST_FILES } from './js-config.js';
import { nodeTestTripwires } from './tripwire-sources.js';

/** Written by `src/runners/reporters/node-test-reporter.mjs`. */
const REPORT_FILE = 'node-test.jsonl';
const REPORTER_FILE = 'node-test-reporter.mjs';

/** Id used when node:test gives no file (tests run outside `node --test`). */
const UNKNOWN_FILE = '<unknown file>';

/** One line of the reporter's report. */
const NodeTestReportLine = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('test'),
    file: z.string().nullable(),
    path: z.array(z.string()).min(1),
    passed: z.boolean(),
    parent: z.boolean().optional(),
    skip: z.boolean().optional(),
    todo: z.boolean().optional(),
    failureType: z.string().optional(),
    message: z.string().optional(),
  }),
  z.object({
    event: z.literal('file'),
    file: z.string().nullable(),
    passed: z.boolean(),
    message: z.string().optional(),
  }),
  z.object({ event: z.literal('end') }),
]);
type NodeTestReportLine = z.infer<typeof NodeTestReportLine>;

/**
 * `node --test` through bakeoff's own reporter, given with NODE_OPTIONS (flags after the
 * positional arguments of `node --test` are not read). Ids are
 * `<file relative to the repo root>::<ancestor> > … > <name>`, e.g.
 * `test/dates.test.mjs::format > time zones > keeps the zone`. Only leaf tests are reported; a
 * suite appears only when it fails by itself (a failing `before`/`after` hook), as an error.
 * The spec reporter still writes to stdout, so the output log stays readable.
 */
export const nodeTestRunner = reportFileRunner({
  format: 'node-test',
  testFiles: NODE_TEST_FILES,
  configFiles: JS_SHARED_CONFIG,
  tripwireSource: nodeTestTripwires,
  holdsTripwires: (text) => /['"]node:test['"]/.test(text),
  reportFile: REPORT_FILE,
  what: 'node:test report',
  addReporter(command, reportDir, report) {
    const reporter = copyReporter(REPORTER_FILE, path.join(reportDir, REPORTER_FILE));
    const options = ['--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${report}`];
    // NODE_OPTIONS is extended in the shell, so options the environment already has are kept,
    // and a NODE_OPTIONS the command sets itself gets the reporter's options in front.
    const exportOptions = 'export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }$BAKEOFF_NODE_OPTIONS"';
    return { command: `${exportOptions}; ${keepEnvPrefix(command, 'NODE_OPTIONS', '"$BAKEOFF_NODE_OPTIONS "')}`, env: { BAKEOFF_NODE_OPTIONS: options.map(quoteNodeOption).join(' ') } };
  },
  parseReport: (text, roots) => parseNodeTestReport(text, roots),
});

/**
 * Maps the reporter's lines to results. A leaf's status: todo and skip → skip; passed → pass;
 * failed in its own code (`testCodeFailure`) → fail; any other failure (a hook, a timeout,
 * cancelled by a parent) → error. A file that failed outside its tests → error under the file.
 * A file node:test reports only as a whole (a plain script, tape) is one test whose id is the
 * file. Two tests with the same name path in one file are numbered (`… #2`), never merged.
 */
export function parseNodeTestReport(text: string, roots: readonly string[]): ParsedReport {
  const { records, problems: lineProblems } = parseJsonLines(text, NodeTestReportLine, REPORT_FILE);
  const problems = [...lineProblems];
  const results: TestResult[] = [];
  for (const record of records) {
    const result = toTestResult(record, roots);
    if (result !== undefined) results.push(result);
  }
  const withTests = new Set(results.map((r) => r.id.split('::')[0]));
  for (const record of records) {
    if (record.event !== 'file' || !record.passed) continue;
    const file = record.file === null ? UNKNOWN_FILE : toRepoRelativePath(record.file, roots);
    if (!withTests.has(file)) results.push({ id: file, status: 'pass' });
  }
  const numbered = numberRepeats(results);
  if (records.at(-1)?.event !== 'end') {
    problems.push('node:test run did not finish (no end line at the end of the report)');
  }
  return mergeTestResults(numbered, problems);
}

function toTestResult(record: NodeTestReportLine, roots: readonly string[]): TestResult | undefined {
  if (record.event === 'end') return undefined;
  const file = record.file === null ? UNKNOWN_FILE : toRepoRelativePath(record.file, roots);
  const message = record.message === undefined ? {} : { message: record.message };
  if (record.event === 'file') return record.passed ? undefined : { id: file, status: 'error', ...message };
  const status = leafStatus(record);
  // A suite or a test with subtests: its subtests carry the results, unless it failed itself.
  if (record.parent && (record.passed || record.failureType === 'subtestsFailed')) return undefined;
  const withMessage = status === 'pass' ? {} : message;
  return { id: `${file}::${record.path.join(' > ')}`, status, ...withMessage };
}

function leafStatus(record: Extract<NodeTestReportLine, { event: 'test' }>): TestStatus {
  if (record.todo || record.skip) return 'skip';
  if (record.passed) return 'pass';
  return record.failureType === 'testCodeFailure' ? 'fail' : 'error';
}
