import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ClockShift, ExecResult, Sandbox } from '../sandbox/types.js';
import { clockEnv } from './clock-env.js';
import { getTestRunner } from './runners/registry.js';
import type { ParsedReport, ReportFormat } from './types.js';

export interface RunTestsOptions {
  readonly sandbox: Sandbox;
  /** The repo to test (hidden files already in place). */
  readonly repoDir: string;
  readonly command: string;
  readonly format: ReportFormat;
  /** Empty folder for report files and the output log, outside the repo. */
  readonly outDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly network?: 'none' | 'host';
  readonly clock?: ClockShift;
}

export interface TestRun {
  readonly report: ParsedReport;
  readonly exec: ExecResult;
  /** Combined stdout+stderr of the test command. */
  readonly outputPath: string;
}

/** Runs a task's test command with its reporter added and reads per-test results. */
export async function runTests(options: RunTestsOptions): Promise<TestRun> {
  const runner = getTestRunner(options.format);
  const reportDir = path.join(options.outDir, 'report');
  await mkdir(reportDir, { recursive: true });
  const outputPath = path.join(options.outDir, 'test-output.log');
  const instrumented = runner.instrument(options.command, { reportDir });
  const exec = await options.sandbox.exec({
    command: instrumented.command,
    cwd: options.repoDir,
    env: { ...options.env, ...instrumented.env, ...(options.clock ? clockEnv(options.clock, options.format) : {}) },
    timeoutMs: options.timeoutMs,
    network: options.network ?? 'none',
    outputPath,
  });
  const output = await readFile(outputPath, 'utf8');
  const report = await runner.parse({ reportDir, output, repoDir: options.repoDir });
  return { report, exec, outputPath };
}
