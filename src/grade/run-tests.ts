import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Bind, ClockShift, ExecResult, Sandbox } from '../sandbox/index.js';
import { clockEnv, placeSleepFix } from './shifted-clock.js';
import { gradeFiles } from '../store/index.js';
import { readBoundedFile } from '../util/index.js';
import { stableTestIds } from './stable-test-ids.js';
import { createReportDir } from './report-dir.js';
import { getTestRunner, ReportUnreadableError } from '../runners/index.js';
import type { ParsedReport, ReportFormat } from './types.js';

export interface RunTestsOptions {
  readonly sandbox: Sandbox;
  /** The repo to test (hidden files already in place). */
  readonly repoDir: string;
  readonly command: string;
  readonly format: ReportFormat;
  /** task.yaml `test.report` (junit): where the command writes its report in the repo. */
  readonly report?: string | undefined;
  /** Where the output log and a copy of the report files are kept (host only). */
  readonly outDir: string;
  /** Empty folder for the report folder and the runner's configuration, outside the repo. */
  readonly scratchDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Most output kept, and the size of the report folder (controls.outputMb). */
  readonly outputBytes: number;
  /** The prepared repo: runner configuration is taken from it, never from the change. */
  readonly configSource: string;
  /** More binds (graded test files read-only, their folders as mount points), after the repo's. */
  readonly binds?: readonly Bind[];
  readonly network?: 'none' | 'host';
  readonly clock?: ClockShift;
}

export interface TestRun {
  readonly report: ParsedReport;
  readonly exec: ExecResult;
  /** Combined stdout+stderr of the test command (head and tail, at most `outputBytes`). */
  readonly outputPath: string;
}

/**
 * Runs a task's test command with its reporter added and reads per-test results. The report
 * folder is a small tmpfs where the tests can write only into the report files bakeoff made;
 * every file read back is checked to be a regular file within its limit.
 */
export async function runTests(options: RunTestsOptions): Promise<TestRun> {
  const runner = getTestRunner(options.format);
  const reportDir = await createReportDir(path.join(options.scratchDir, 'report'), {
    bytes: options.outputBytes,
    owner: options.sandbox.owner,
    files: runner.reportFiles,
  });
  try {
    const configDir = path.join(options.scratchDir, 'config');
    await mkdir(configDir, { recursive: true, mode: 0o755 });
    await mkdir(options.outDir, { recursive: true });
    const kept = gradeFiles(options.outDir);
    const outputPath = kept.testOutput;
    const instrumented = runner.instrument(options.command, { reportDir: reportDir.dir, configDir, configSource: options.configSource, report: options.report });
    const exec = await options.sandbox.exec({
      command: instrumented.command,
      cwd: options.repoDir,
      env: { ...options.env, ...instrumented.env, ...(options.clock ? clockEnv(await placeSleepFix(options.clock, configDir), options.format) : {}) },
      timeoutMs: options.timeoutMs,
      network: options.network ?? 'none',
      outputPath,
      maxOutputBytes: options.outputBytes,
      binds: [
        { path: options.repoDir, writable: true },
        ...(options.binds ?? []),
        { path: reportDir.dir, writable: true },
        { path: configDir, writable: false },
      ],
    });
    // only a runner whose report is the output reads it: a 64 MiB log is not decoded for nothing
    const logged = runner.reportIsOutput === true ? await readBoundedFile(outputPath, options.outputBytes + 4096, { truncate: true }) : null;
    const output = logged?.kind === 'ok' ? logged.text : '';
    const report = stableTestIds(await parseReport(() => runner.parse({ reportDir: reportDir.dir, output, repoDir: options.repoDir, report: options.report })), options.repoDir);
    await keepReportFiles(reportDir.dir, runner.reportFiles, kept.report, options.outputBytes);
    for (const source of report.sources ?? []) await writeFile(path.join(kept.report, source.name), source.text);
    return { report, exec, outputPath };
  } finally {
    await reportDir.dispose();
  }
}

async function parseReport(parse: () => Promise<ParsedReport>): Promise<ParsedReport> {
  try {
    return await parse();
  } catch (error) {
    if (error instanceof ReportUnreadableError) return { tests: [], problems: [error.message], unreadable: error.message };
    throw error;
  }
}

/** Copies the report files (regular files within the limit only) next to the output log. */
async function keepReportFiles(reportDir: string, files: readonly string[], target: string, maxBytes: number): Promise<void> {
  await mkdir(target, { recursive: true });
  for (const name of files) {
    const read = await readBoundedFile(path.join(reportDir, name), maxBytes);
    if (read.kind === 'ok') await writeFile(path.join(target, name), read.text);
  }
}
