import { cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ClockShift, ExecResult, Sandbox } from '../sandbox/types.js';
import { chownTree } from '../sandbox/workspace.js';
import { clockEnv } from './clock-env.js';
import { getTestRunner } from './runners/registry.js';
import type { ParsedReport, ReportFormat } from './types.js';

export interface RunTestsOptions {
  readonly sandbox: Sandbox;
  /** The repo to test (hidden files already in place). */
  readonly repoDir: string;
  readonly command: string;
  readonly format: ReportFormat;
  /** Where the output log and a copy of the report files are kept (host only). */
  readonly outDir: string;
  /** Empty folder the sandbox may write report files to, outside the repo. */
  readonly scratchDir: string;
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
  const reportDir = path.join(options.scratchDir, 'report');
  await mkdir(reportDir, { recursive: true });
  await mkdir(options.outDir, { recursive: true });
  const outputPath = path.join(options.outDir, 'test-output.log');
  const instrumented = runner.instrument(options.command, { reportDir });
  if (options.sandbox.owner) await chownTree([reportDir], options.sandbox.owner);
  const exec = await options.sandbox.exec({
    command: instrumented.command,
    cwd: options.repoDir,
    env: { ...options.env, ...instrumented.env, ...(options.clock ? clockEnv(options.clock, options.format) : {}) },
    timeoutMs: options.timeoutMs,
    network: options.network ?? 'none',
    outputPath,
    binds: [
      { path: options.repoDir, writable: true },
      { path: reportDir, writable: true },
    ],
  });
  const output = await readFile(outputPath, 'utf8');
  const report = await runner.parse({ reportDir, output, repoDir: options.repoDir });
  await cp(reportDir, path.join(options.outDir, 'report'), { recursive: true });
  return { report, exec, outputPath };
}
