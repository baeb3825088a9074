import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { quotedPath } from '../util/index.js';
import { mochaLoadedFiles } from './mocha-loaded-files.js';
import { pytestLoadedFiles } from './pytest-loaded-files.js';
import type { ReportFormat } from './types.js';

/*
 * Runner configuration kept in files that also hold other things, so that a path glob cannot
 * protect it: the `jest`, `babel`, `mocha` and `tap` keys of any package.json (as the format
 * reads them) and the keys that decide what runs or loads (`name`, `bin`, `exports`, `imports`,
 * `volta`), the files mocha's configuration loads and the modules pytest's loads as plugins,
 * `scripts` and `packageManager` when the test command goes through a package manager, and
 * everything in a Cargo.toml but package metadata
 * (build scripts, test targets and their harness, profiles, patches, dependencies — a path
 * dependency is a crate of the change's own, run at build time if it is a proc-macro).
 */

/** Keys of Cargo.toml's `[package]` that only describe the package. */
const CARGO_METADATA = new Set([
  'version', 'description', 'authors', 'readme', 'keywords', 'categories', 'documentation', 'homepage',
  'repository', 'license', 'license-file', 'publish', 'exclude', 'include', 'metadata', 'rust-version', 'edition',
]);

/**
 * Keys of any package.json that decide which program runs or what a name loads, whatever the
 * JavaScript runner: npx runs the project's own `bin` entry of a name before node_modules/.bin;
 * a package imports itself by its `name` through its `exports` (ahead of node_modules: a package
 * named `tape` or `vitest` would be what the hidden tests import); `#` specifiers go through
 * `imports`; volta picks the node binary from `volta`.
 */
const RESOLUTION_KEYS = ['name', 'bin', 'exports', 'imports', 'volta'] as const;

/**
 * The package.json keys each format reads its configuration from. junit can be written by any
 * runner, so it gets the keys of every JavaScript runner bakeoff knows.
 */
const PACKAGE_KEYS: Partial<Readonly<Record<ReportFormat, readonly string[]>>> = {
  jest: ['jest', 'babel'],
  mocha: ['mocha'],
  tap: ['tap'],
  junit: ['jest', 'babel', 'mocha'],
};

/** Formats whose command runs JavaScript, for {@link RESOLUTION_KEYS}. */
const JS_FORMATS: ReadonlySet<ReportFormat> = new Set(['node-test', 'vitest', 'jest', 'mocha', 'tap', 'junit']);

/** Keys read when the command goes through a package manager: the scripts it runs, and the package manager corepack runs. */
const SCRIPT_KEYS = ['scripts', 'packageManager'] as const;

/** Whether the task's tests run under pytest: the pytest format, or a JUnit report its command has pytest write (`python -m pytest`, `pytest`). */
export function runsPytest(format: ReportFormat, command: string): boolean {
  return format === 'pytest' || (format === 'junit' && /(^|[\s;&|(/])(py\.test|pytest)(\s|$)/.test(command));
}

/** Whether the bare command runs a script from package.json (npm/pnpm/yarn/bun, not npx). */
export function usesPackageScripts(command: string): boolean {
  return /(^|[\s;&|(])(npm|pnpm|yarn|bun)(\s|$)/.test(command);
}

/**
 * Changed configuration in package.json and Cargo.toml files the change touched, each as
 * `path: what`; empty when none.
 */
export async function configChanges(options: {
  readonly format: ReportFormat;
  readonly command: string;
  readonly preparedRepo: string;
  readonly repoDir: string;
  readonly changedPaths: readonly string[];
}): Promise<string[]> {
  const out: string[] = [];
  const mochaFiles = options.format === 'mocha' ? await mochaLoadedFiles(options.preparedRepo, options.command) : new Set<string>();
  const pytestFiles = runsPytest(options.format, options.command) ? await pytestLoadedFiles(options.preparedRepo, options.command) : new Set<string>();
  for (const rel of options.changedPaths) {
    if (mochaFiles.has(rel)) {
      out.push(`${quotedPath(rel)}: loaded by mocha's configuration (require, file or ui) before the tests`);
      continue;
    }
    if (pytestFiles.has(rel)) {
      out.push(`${quotedPath(rel)}: loaded by pytest's configuration as a plugin (-p or pytest_plugins) before the tests`);
      continue;
    }
    const name = path.posix.basename(rel);
    const before = await readFile(path.join(options.preparedRepo, rel), 'utf8').catch(() => null);
    const after = await readFile(path.join(options.repoDir, rel), 'utf8').catch(() => null);
    if (name === 'package.json' && options.format !== 'pytest' && options.format !== 'cargo') {
      const keys = [...(PACKAGE_KEYS[options.format] ?? []), ...(usesPackageScripts(options.command) ? SCRIPT_KEYS : [])];
      const changed = changedJsonKeys(before, after, keys);
      if (changed.length > 0) out.push(`${quotedPath(rel)}: ${changed.map((k) => `"${k}"`).join(', ')} changed (runner configuration)`);
      const resolution = JS_FORMATS.has(options.format) ? changedJsonKeys(before, after, RESOLUTION_KEYS) : [];
      if (resolution.length > 0) out.push(`${quotedPath(rel)}: ${resolution.map((k) => `"${k}"`).join(', ')} changed (decides which program runs or what a package name loads)`);
    }
    if (name === 'Cargo.toml' && (options.format === 'cargo' || options.format === 'junit')) {
      const what = cargoChange(before, after);
      if (what !== null) out.push(`${quotedPath(rel)}: ${what}`);
    }
  }
  return out;
}

function changedJsonKeys(before: string | null, after: string | null, keys: readonly string[]): string[] {
  const a = jsonObject(before);
  const b = jsonObject(after);
  return keys.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

function jsonObject(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** What changed in a Cargo.toml beyond package metadata, or null. */
function cargoChange(before: string | null, after: string | null): string | null {
  if (before === null) return after === null ? null : 'a Cargo.toml the change added (a crate of its own)';
  if (after === null) return 'deleted';
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  try {
    a = parseToml(before) as Record<string, unknown>;
    b = parseToml(after) as Record<string, unknown>;
  } catch {
    return 'not valid TOML any more';
  }
  const strip = (doc: Record<string, unknown>): Record<string, unknown> => {
    const pkg = (doc.package ?? {}) as Record<string, unknown>;
    const kept = Object.fromEntries(Object.entries(pkg).filter(([k]) => !CARGO_METADATA.has(k)));
    return { ...doc, package: kept };
  };
  const first = firstDifference(strip(a), strip(b), '');
  return first === null ? null : `${first} changed (only package metadata may change)`;
}

function firstDifference(a: unknown, b: unknown, at: string): string | null {
  if (isRecord(a) && isRecord(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const found = firstDifference(a[key], b[key], at === '' ? key : `${at}.${key}`);
      if (found !== null) return found;
    }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? null : at || '(root)';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
}
