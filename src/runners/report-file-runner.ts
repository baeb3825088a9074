import path from 'node:path';
import type { InstrumentedCommand, ParsedReport, TestRunner } from './types.js';
import { parseReportFile } from './read-report-file.js';
import { readRepoRoots, recordRepoRoot } from './repo-root.js';

/** What sets apart a runner whose reporter writes one file of the report folder. */
export interface ReportFileRunner extends Pick<TestRunner, 'format' | 'testFiles' | 'configFiles' | 'tripwireSource' | 'holdsTripwires'> {
  /** The report's file name in the report folder. */
  readonly reportFile: string;
  /** What a missing report is called: `<what> <reportFile> is missing`. */
  readonly what: string;
  /** The bare command with the reporter added, writing its report to `report` (in `reportDir`); `configSource` is the prepared repo. */
  addReporter(command: string, reportDir: string, report: string, configSource?: string): InstrumentedCommand;
  /** Reads the report; its test files are named by absolute paths under one of `roots`. */
  parseReport(text: string, roots: readonly string[]): ParsedReport;
}

/**
 * A runner whose reporter writes one file of the report folder and names test files by their
 * absolute paths (jest, vitest, mocha, node:test): the command records the repo root first
 * (`recordRepoRoot`), and the report is read with paths made relative to it.
 */
export function reportFileRunner(spec: ReportFileRunner): TestRunner {
  const { reportFile, what, addReporter, parseReport, ...runner } = spec;
  return {
    ...runner,
    reportFiles: [reportFile, 'root.txt'],
    testNamePrefix: '',
    // `<file>::<describe> > … > <title>`, as every such runner names its tests
    testIds: (file, path, name) => [`${file}::${[...path, name].join(' > ')}`],
    instrument(command, { reportDir, configSource }) {
      const added = addReporter(command, reportDir, path.join(reportDir, reportFile), configSource);
      return { command: `${recordRepoRoot(reportDir)}; ${added.command}`, env: added.env };
    },
    parse: ({ reportDir, repoDir }) =>
      parseReportFile(reportDir, { reportFile, what }, async (text) => parseReport(text, await readRepoRoots({ reportDir, repoDir }))),
  };
}
