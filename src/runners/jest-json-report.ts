import path from 'node:path';
import { z } from 'zod';
import type { ParsedReport, TestResult, TestRunner, TestStatus } from './types.js';
import { quoteShellArg } from '../util/index.js';
import { firstLine } from './first-line.js';
import { mergeTestResults } from './merge-test-results.js';
import { numberRepeats } from './number-repeats.js';
import { reportFileRunner } from './report-file-runner.js';
import { toRepoRelativePath } from './repo-root.js';

/** One test in a jest-shaped JSON report (`jest --json`, vitest's `json` reporter). */
const AssertionResult = z.object({
  ancestorTitles: z.array(z.string()),
  title: z.string(),
  status: z.string(),
  failureMessages: z.array(z.string()).nullish(),
});

/** One test file; a file that crashed has status `failed`, a message and no assertionResults. */
const FileResult = z.object({
  name: z.string(),
  status: z.string(),
  message: z.string().nullish(),
  assertionResults: z.array(AssertionResult),
});

/** The parts of the report bakeoff reads; other fields are ignored. */
const JestJsonReport = z.object({
  testResults: z.array(FileResult),
  wasInterrupted: z.boolean().optional(),
});

const STATUSES: Readonly<Record<string, TestStatus>> = {
  passed: 'pass',
  failed: 'fail',
  pending: 'skip',
  skipped: 'skip',
  todo: 'skip',
  disabled: 'skip',
};

/** What sets one jest-shaped runner apart from another. */
export interface JestShapedRunner extends Pick<TestRunner, 'format' | 'testFiles' | 'configFiles' | 'tripwireSource'> {
  /** The report's file name in the report folder. */
  readonly reportFile: string;
  /** The runner's options that write the JSON report (`--outputFile=<report>` follows them), given the prepared repo when known. */
  readonly reportOptions: string | ((configSource: string | undefined) => string);
}

/**
 * A runner that writes a jest-shaped JSON report through `--outputFile` (jest `--json`,
 * vitest's `json` reporter): the repo root recorded first, the report read with file paths
 * made relative to it.
 */
export function jestShapedRunner({ reportOptions, ...spec }: JestShapedRunner): TestRunner {
  return reportFileRunner({
    ...spec,
    what: 'report',
    addReporter: (command, _reportDir, report, configSource) => {
      const options = typeof reportOptions === 'string' ? reportOptions : reportOptions(configSource);
      return { command: `${command} ${options} ${quoteShellArg(`--outputFile=${report}`)}`, env: {} };
    },
    parseReport: (text, roots) => parseJestJsonReport(text, { roots, reportFile: spec.reportFile }),
  });
}

/**
 * Maps a jest-shaped JSON report to results with ids `<file>::<ancestors> > <title>` (a second
 * test of the same title in the same file is `… #2`, never merged with the first).
 * passed → pass, failed → fail, pending/skipped/todo/disabled → skip. A file that failed
 * without any failing test (it crashed, or a hook such as `afterAll` threw) adds one error
 * whose id is the file.
 */
export function parseJestJsonReport(
  text: string,
  options: { readonly roots: readonly string[]; readonly reportFile: string },
): ParsedReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { tests: [], problems: [`report ${options.reportFile} is not valid JSON`] };
  }
  const report = JestJsonReport.safeParse(json);
  if (!report.success) {
    const issue = report.error.issues[0];
    const where = issue === undefined ? '' : ` at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
    return { tests: [], problems: [`report ${options.reportFile} does not have the jest JSON shape${where}`] };
  }
  const problems: string[] = [];
  const results: TestResult[] = [];
  for (const file of report.data.testResults) {
    results.push(...fileResults(file, options.roots, problems));
  }
  if (report.data.wasInterrupted) problems.push(`report ${options.reportFile} says the run was interrupted`);
  return mergeTestResults(results, problems);
}

function fileResults(file: z.infer<typeof FileResult>, roots: readonly string[], problems: string[]): TestResult[] {
  const fileId = toRepoRelativePath(file.name, roots);
  const results = numberRepeats(file.assertionResults.map((test): TestResult => {
    const id = `${fileId}::${[...test.ancestorTitles, test.title].join(' > ')}`;
    const status = STATUSES[test.status];
    if (status === undefined) {
      problems.push(`test "${id}" has an unknown status "${test.status}"`);
      return { id, status: 'error', message: `unknown status ${test.status}` };
    }
    const message = status === 'fail' ? firstLine(test.failureMessages?.[0]) : undefined;
    return { id, status, ...(message === undefined ? {} : { message }) };
  }));
  if (file.status === 'failed' && !results.some((r) => r.status === 'fail' || r.status === 'error')) {
    // Jest headings such as "● Test suite failed to run" come before the actual error.
    const message = firstLine(file.message ?? undefined, (line) => line.startsWith('●'));
    results.push({ id: fileId, status: 'error', message: message ?? 'the test file failed outside its tests' });
  }
  return results;
}
