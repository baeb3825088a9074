import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { quotedPath } from '../util/index.js';
import { mochaLoadedFiles } from './mocha-loaded-files.js';
import type { ReportFormat } from './types.js';

/*
 * Runner configuration kept in files that also hold other things, so that a path glob cannot
 * protect it: the `jest`, `babel`, `mocha` and `tap` keys of any package.json (as the format
 * reads them), the files mocha's configuration loads, its `scripts` when the test
 * command goes through a package manager, and everything in a Cargo.toml but package metadata
 * (build scripts, test targets and their harness, profiles, patches, dependencies — a path
 * dependency is a crate of the change's own, run at build time if it is a proc-macro).
 */

/** Keys of Cargo.toml's `[package]` that only describe the package. */
const CARGO_METADATA = new Set([
  'version', 'description', 'authors', 'readme', 'keywords', 'categories', 'documentation', 'homepage',
  'repository', 'license', 'license-file', 'publish', 'exclude', 'include', 'metadata', 'rust-version', 'edition',
]);

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
  for (const rel of options.changedPaths) {
    if (mochaFiles.has(rel)) {
      out.push(`${quotedPath(rel)}: loaded by mocha's configuration (require, file or ui) before the tests`);
      continue;
    }
    const name = path.posix.basename(rel);
    const before = await readFile(path.join(options.preparedRepo, rel), 'utf8').catch(() => null);
    const after = await readFile(path.join(options.repoDir, rel), 'utf8').catch(() => null);
    if (name === 'package.json' && options.format !== 'pytest' && options.format !== 'cargo') {
      const keys = [...(PACKAGE_KEYS[options.format] ?? []), ...(usesPackageScripts(options.command) ? ['scripts'] : [])];
      const changed = changedJsonKeys(before, after, keys);
      if (changed.length > 0) out.push(`${quotedPath(rel)}: ${changed.map((k) => `"${k}"`).join(', ')} changed (runner configuration)`);
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
