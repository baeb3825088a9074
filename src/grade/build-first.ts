import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { Bind, ExecResult, Sandbox } from '../sandbox/index.js';
import { readBoundedFile } from '../util/index.js';
import type { TestRunner } from './types.js';

/*
 * Build, then run, with what was built out of the code's reach. A runner that compiles the tests
 * (cargo) builds every test binary first, in a sandbox of its own, before any code of the change
 * runs; the run that follows is shown the folders holding them read-only (each a mount point, so
 * it cannot be renamed away either), finds nothing left to build, and runs them. After the run
 * the binaries are checked, like the graded test files: a binary that is not the one built
 * (another inode, size, mtime or ctime: any write or replacement changes one) is tampering.
 */

/** What the build made, shown read-only to the run. */
export interface Built {
  /** The build's own result (its output is `logPath`). */
  readonly exec: ExecResult;
  readonly logPath: string;
  /** Binds of the folders holding the built files, read-only; empty when the build failed (the run then builds as it runs). */
  readonly binds: readonly Bind[];
  /** Built file (absolute) → its identity after the build. */
  readonly identities: ReadonlyMap<string, string>;
}

export interface BuildOptions {
  readonly sandbox: Sandbox;
  readonly runner: TestRunner;
  readonly command: string;
  readonly repoDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly binds: readonly Bind[];
  readonly timeoutMs: number;
  readonly outputBytes: number;
  readonly outDir: string;
}

/** Builds what the tests will run (null when the runner builds as it runs). */
export async function buildFirst(options: BuildOptions): Promise<Built | null> {
  const build = options.runner.build;
  if (!build) return null;
  const instrumented = build.command(options.command);
  const logPath = path.join(options.outDir, 'build-output.log');
  const exec = await options.sandbox.exec({
    command: instrumented.command,
    cwd: options.repoDir,
    env: { ...options.env, ...instrumented.env },
    timeoutMs: options.timeoutMs,
    network: 'none',
    outputPath: logPath,
    maxOutputBytes: options.outputBytes,
    binds: [{ path: options.repoDir, writable: true }, ...options.binds],
  });
  if (exec.exitCode !== 0 || exec.timedOut) return { exec, logPath, binds: [], identities: new Map() };
  const logged = await readBoundedFile(logPath, options.outputBytes + 4096, { truncate: true });
  const inRepo = build.builtFiles(logged.kind === 'ok' ? logged.text : '').filter((file) => isInside(options.repoDir, file));
  const identities = new Map<string, string>();
  for (const file of inRepo) identities.set(file, await identity(file));
  const dirs = [...new Set(inRepo.map((file) => path.dirname(file)))].sort();
  return { exec, logPath, binds: dirs.map((dir) => ({ path: dir, writable: false })), identities };
}

/** Built files that are not what the build left (changed, replaced or gone), repo-relative. */
export async function changedBuiltFiles(repoDir: string, built: Built | null): Promise<string[]> {
  const out: string[] = [];
  for (const [file, before] of built?.identities ?? []) if ((await identity(file)) !== before) out.push(path.relative(repoDir, file));
  return out;
}

async function identity(file: string): Promise<string> {
  const st = await lstat(file, { bigint: true }).catch(() => null);
  return st === null ? 'missing' : `${st.dev}:${st.ino}:${st.mode}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

function isInside(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
