import { copyFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ParsedReport, TestResult, TestRunner, TestStatus } from '../types.js';
import { mergeTestResults } from './merge-test-results.js';
import { numberRepeats } from './number-repeats.js';
import { parseJsonLines } from './parse-json-lines.js';
import { readReportFile } from './read-report-file.js';
import { readRepoRoots, recordRepoRoot, toRepoRelativePath } from './repo-root.js';
import { resolveReportersDir } from './reporters-dir.js';
import { quoteNodeOption } from '../../util/index.js';
import { JS_SHARED_CONFIG, NODE_TEST_FILES } from './js-config.js';
import { nodeTestTripwires } from './tripwire-sources.js';

/** Written by `src/grade/reporters/node-test-reporter.mjs`. */
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
export const nodeTestRunner: TestRunner = {
  format: 'node-test',
  testFiles: NODE_TEST_FILES,
  configFiles: JS_SHARED_CONFIG,
  reportFiles: [REPORT_FILE, 'root.txt'],
  testNamePrefix: '',
  tripwireSource: nodeTestTripwires,
  holdsTripwires: (text) => /['"]node:test['"]/.test(text),
  instrument(command, { reportDir }) {
    // The reporter is copied next to the report: the report folder is the one harness folder
    // a sandboxed test command is sure to see.
    const reporter = path.join(reportDir, REPORTER_FILE);
    copyFileSync(path.join(resolveReportersDir(), REPORTER_FILE), reporter);
    const options = [
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${reporter}`,
      `--test-reporter-destination=${path.join(reportDir, REPORT_FILE)}`,
    ].map(quoteNodeOption);
    // NODE_OPTIONS is extended in the shell, so options the environment already has are kept.
    const exportOptions = 'export NODE_OPTIONS="${NODE_OPTIONS:+$NODE_OPTIONS }$BAKEOFF_NODE_OPTIONS"';
    return {
      command: `${recordRepoRoot(reportDir)}; ${exportOptions}; ${command}`,
      env: { BAKEOFF_NODE_OPTIONS: options.join(' ') },
    };
  },
  async parse({ reportDir, repoDir }) {
    const text = await readReportFile(path.join(reportDir, REPORT_FILE));
    if (text === undefined) return { tests: [], problems: [`node:test report ${REPORT_FILE} is missing`] };
    return parseNodeTestReport(text, await readRepoRoots({ reportDir, repoDir }));
  },
};

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
  const merged = mergeTestResults(numbered);
  return { tests: merged.tests, problems: [...problems, ...merged.problems] };
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
