import { lstat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { quotedPath } from '../util/index.js';
import { configChanges, runsPytest } from './config-changes.js';
import { pythonShadows } from './python-shadow.js';
import type { ReportFormat, TestRunner } from './types.js';

/**
 * Compiled and binary files: what a reviewer cannot read and a runtime may load instead of the
 * source next to it (an unchecked-hash `.pyc`, a native addon). Protected unless allowed.
 */
export const COMPILED_FILES = [
  '**/__pycache__/**', '**/*.pyc', '**/*.pyo', '**/*.pyd',
  '**/*.so', '**/*.so.*', '**/*.dylib', '**/*.dll', '**/*.exe', '**/*.o', '**/*.obj', '**/*.a', '**/*.lib',
  '**/*.node', '**/*.wasm', '**/*.class', '**/*.jar', '**/*.whl', '**/*.egg', '**/*.rlib', '**/*.rmeta',
  '**/*.zip', '**/*.tar', '**/*.tgz', '**/*.gz', '**/*.bz2', '**/*.xz', '**/*.7z',
] as const;

export interface ProtectedChangesOptions {
  /** Globs nobody may change: always-protected, the suite's and the task's. */
  readonly protectedPaths: readonly string[];
  /** Globs of compiled or binary files the change may hold. */
  readonly allowedPaths: readonly string[];
  /** Paths the change added, changed or deleted. */
  readonly changedPaths: readonly string[];
  /** Added or changed files with binary content. */
  readonly binaryPaths: readonly string[];
  /** The graded runner (tests-graded orders), whose configuration files are protected too. */
  readonly runner: TestRunner | null;
  readonly format: ReportFormat | null;
  readonly command: string;
  readonly preparedRepo: string;
  /** The grading copy, with the change applied. */
  readonly repoDir: string;
  /** Top-level Python module names the interpreter can import (tasks whose tests run under pytest), for the shadowing rule. */
  readonly pythonModules: ReadonlySet<string> | null;
  /** Folders pytest puts on sys.path besides the root (those of the graded test files). */
  readonly testDirs: readonly string[];
}

/**
 * Every way the change touches what it may not, one `path (why)` each: a protected or runner
 * configuration path, a compiled or binary file that is not allowed, runner configuration
 * inside package.json or Cargo.toml, a Python module that shadows an installed one.
 */
export async function protectedChanges(options: ProtectedChangesOptions): Promise<string[]> {
  const out: string[] = [];
  const isProtected = picomatch([...options.protectedPaths, ...(options.runner?.configFiles ?? [])], { dot: true });
  const isCompiled = picomatch([...COMPILED_FILES], { dot: true });
  const isAllowed = options.allowedPaths.length > 0 ? picomatch([...options.allowedPaths], { dot: true }) : () => false;
  const binary = new Set(options.binaryPaths);
  for (const rel of options.changedPaths) {
    if (isProtected(rel)) {
      out.push(quotedPath(rel));
      continue;
    }
    if ((isCompiled(rel) || binary.has(rel)) && !isAllowed(rel) && (await present(options.repoDir, rel))) {
      out.push(`${quotedPath(rel)} (a compiled or binary file; a suite allows them with allowedPaths)`);
    }
  }
  if (options.format !== null) out.push(...(await configChanges({ ...options, format: options.format })));
  if (options.format !== null && runsPytest(options.format, options.command) && options.pythonModules !== null) {
    out.push(...(await pythonShadows({ ...options, installed: options.pythonModules })));
  }
  return out;
}

async function present(repoDir: string, rel: string): Promise<boolean> {
  return (await lstat(path.join(repoDir, rel)).catch(() => undefined)) !== undefined;
}
