/**
 * The import graph of `src/`, read with the TypeScript scanner (no type checking, no code run),
 * and the rules the module map must keep: every import between modules points to a lower layer
 * and enters the module through its public surface — its `index.ts`, or one of the files that
 * `index.ts` re-exports (decision 015: a command loads the one file it needs, not the barrel) —
 * and no files import each other in a ring.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The layers, lowest first. A module may import only modules of lower layers. */
export const LAYERS: readonly (readonly string[])[] = [
  ['core'], // types.ts, errors.ts, version.ts: the vocabulary
  ['util'],
  ['runners'],
  ['suite', 'plan', 'store', 'report'],
  ['sandbox', 'meter', 'importers'],
  ['grade', 'model-server'],
  ['agents'],
  ['run'],
  ['admit', 'verify', 'export', 'queue'],
  ['api'],
  ['cli'],
  ['entry'], // src/index.ts: the package's surface
];

/**
 * Modules that may import only some of the modules below them. The CLI parses flags, makes one
 * library call and renders (issue 32): it reaches the rest of bakeoff only through `api`, and
 * uses `report` (rendering) and `util` besides the core vocabulary.
 */
export const ONLY: Readonly<Record<string, readonly string[]>> = {
  cli: ['core', 'util', 'report', 'api'],
};

/** Root files that are modules of their own; every other file's module is its top folder. */
const ROOT_FILES: Readonly<Record<string, string>> = { 'types.ts': 'core', 'errors.ts': 'core', 'version.ts': 'core', 'index.ts': 'entry' };

export interface Import {
  /** Importing file, relative to the source root. */
  readonly from: string;
  /** Imported file, relative to the source root (`.ts`). */
  readonly to: string;
  readonly line: number;
  /** True for `export … from` (a re-export), false for an import, static or dynamic. */
  readonly reexport: boolean;
}

export interface Violation {
  readonly rule: 'upward' | 'sideways' | 'deep' | 'narrow' | 'unknown-module' | 'cycle' | 'folder-cycle' | 'test-helper-shipped';
  readonly message: string;
}

/** The module a source file belongs to. */
export function moduleOf(file: string): string {
  const parts = file.split('/');
  return parts.length === 1 ? (ROOT_FILES[file] ?? 'unknown') : parts[0]!;
}

function sourceFiles(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(root, full));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path.relative(root, full).split(path.sep).join('/'));
  }
  return out;
}

/** Every relative import (and `export … from`) of the non-test `.ts` files under `root`. */
export function readImports(root: string): Import[] {
  const imports: Import[] = [];
  for (const from of sourceFiles(root)) {
    const text = readFileSync(path.join(root, from), 'utf8');
    // where each line starts, once per file: the line of an import is the count of starts at or before it
    const lineStarts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(from), ref.fileName)).replace(/\.js$/, '.ts');
      const line = lineStarts.filter((start) => start <= ref.pos).length;
      imports.push({ from, to, line, reexport: isReexport(text, ref.pos) });
    }
  }
  return imports;
}

/** True when the module name at `pos` ends an `export … from` statement (the nearest statement keyword that starts a line before it is `export`, and it is no `import(…)`). */
function isReexport(text: string, pos: number): boolean {
  const before = text.slice(0, pos);
  if (/import\s*\(\s*['"`]?$/.test(before.slice(-40))) return false;
  const keywords = [...before.matchAll(/(?:^|\n)[ \t]*(export|import)\b/g)];
  return keywords.at(-1)?.[1] === 'export';
}

/** The rules broken by `imports`, each with the file and line that breaks it. */
export function checkLayers(imports: readonly Import[], layers: readonly (readonly string[])[] = LAYERS): Violation[] {
  const rank = new Map<string, number>();
  layers.forEach((mods, i) => mods.forEach((m) => rank.set(m, i)));
  const surface = publicFiles(imports);
  const violations: Violation[] = [];
  for (const { from, to, line } of imports) {
    const a = moduleOf(from);
    const b = moduleOf(to);
    const where = `src/${from}:${line} imports src/${to}`;
    if (!rank.has(a) || !rank.has(b)) {
      violations.push({ rule: 'unknown-module', message: `${where}: module ${rank.has(a) ? b : a} is in no layer (add it to LAYERS in test/architecture/module-graph.ts)` });
      continue;
    }
    if (a === b) continue;
    const ra = rank.get(a)!;
    const rb = rank.get(b)!;
    if (rb > ra) violations.push({ rule: 'upward', message: `${where}: ${a} (layer ${ra}) may not import ${b} (layer ${rb}, above it)` });
    else if (rb === ra) violations.push({ rule: 'sideways', message: `${where}: ${a} and ${b} share layer ${ra}; modules of one layer do not import each other` });
    else if (ONLY[a] && !ONLY[a].includes(b)) violations.push({ rule: 'narrow', message: `${where}: ${a} may import only ${ONLY[a].join(', ')} (reach ${b} through api)` });
    else if (b !== 'core' && !surface.has(to)) violations.push({ rule: 'deep', message: `${where}: enter ${b} through src/${b}/index.ts or a file it re-exports` });
  }
  return [...violations, ...fileCycles(imports), ...folderCycles(imports)];
}

/** The folder a file sits in, relative to the source root (`report/view` for `report/view/summarize.ts`). */
function folderOf(file: string): string {
  return path.posix.dirname(file);
}

/** True when folder `inner` is `outer` or lies under it (a module's files use its sub-folders and they use its shared files). */
function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`);
}

/**
 * Rings of folders inside one module whose files import each other's (`report/view` imports
 * `report/render` and `report/render` imports `report/view`): a folder is a part of its module with
 * one direction of use; what two folders share belongs in a third one both import.
 */
function folderCycles(imports: readonly Import[]): Violation[] {
  const edges = imports
    .map(({ from, to }) => ({ from: folderOf(from), to: folderOf(to) }))
    .filter(({ from, to }) => moduleOf(`${from}/x`) === moduleOf(`${to}/x`) && !within(from, to) && !within(to, from));
  return rings(edges).map((ring) => ({
    rule: 'folder-cycle',
    message: `folders import each other in a ring: ${ring.map((f) => `src/${f}/`).join(', ')} (${ring
      .map((f) => {
        const first = imports.find(({ from, to }) => folderOf(from) === f && ring.includes(folderOf(to)) && !within(folderOf(to), f) && !within(f, folderOf(to)))!;
        return `src/${first.from}:${first.line} imports src/${first.to}`;
      })
      .join('; ')}): move what they share into a folder both import`,
  }));
}

/**
 * Each module's public files: its `index.ts` and, transitively, the files of the module that
 * `index.ts` re-exports with `export … from` (`report/index.ts` → `report/site/index.ts` →
 * `report/site/render-site.ts`).
 */
export function publicFiles(imports: readonly Import[]): Set<string> {
  const reexported = new Map<string, string[]>();
  for (const { from, to, reexport } of imports) if (reexport) reexported.set(from, [...(reexported.get(from) ?? []), to]);
  const found = new Set<string>();
  const visit = (file: string, module: string): void => {
    if (found.has(file) || moduleOf(file) !== module) return;
    found.add(file);
    for (const to of reexported.get(file) ?? []) visit(to, module);
  };
  for (const { from } of imports) {
    const module = moduleOf(from);
    if (from === `${module}/index.ts`) visit(from, module);
  }
  return found;
}

/** Rings of files that import each other. */
function fileCycles(imports: readonly Import[]): Violation[] {
  return rings(imports).map((ring) => ({ rule: 'cycle', message: `files import each other in a ring: ${ring.map((f) => `src/${f}`).join(', ')}` }));
}

/** The rings of a directed graph given as edges, each sorted (Tarjan's strongly connected components of more than one node). */
function rings(edges: readonly { readonly from: string; readonly to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const ring: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        ring.push(w);
      } while (w !== v);
      if (ring.length > 1) found.push(ring.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** A test file or a test helper: left out of the build (tsconfig.build.json excludes these names) or outside `src/`. */
function isTestFile(file: string): boolean {
  return /\.test(-support)?\.ts$/.test(file) || file.endsWith('/test-recipe.ts') || file === 'test-recipe.ts';
}

function allTsFiles(dir: string, skip: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (skip.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...allTsFiles(full, skip));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * Source files of `src` that only tests import (test files, test helpers, anything under
 * `testRoot`) but whose names the build does not leave out: they would ship in `dist/`. A
 * helper for tests is named `*.test-support.ts` (tsconfig.build.json excludes it).
 */
export function shippedTestHelpers(srcRoot: string, testRoot: string): Violation[] {
  const files = [...allTsFiles(srcRoot, new Set()), ...allTsFiles(testRoot, new Set(['fixtures']))];
  const importers = new Map<string, string[]>();
  for (const from of files) {
    for (const ref of ts.preProcessFile(readFileSync(from, 'utf8'), true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const to = path.resolve(path.dirname(from), ref.fileName).replace(/\.js$/, '.ts');
      importers.set(to, [...(importers.get(to) ?? []), from]);
    }
  }
  const isTest = (file: string): boolean => !file.startsWith(srcRoot + path.sep) || isTestFile(file);
  const violations: Violation[] = [];
  for (const file of files) {
    if (isTest(file)) continue;
    const by = importers.get(file) ?? [];
    if (by.length === 0 || !by.every(isTest)) continue;
    const rel = path.relative(srcRoot, file).split(path.sep).join('/');
    violations.push({ rule: 'test-helper-shipped', message: `src/${rel} is imported only by tests (${by.map((f) => path.relative(path.dirname(srcRoot), f)).slice(0, 3).join(', ')}) but ships in dist/: name it src/${rel.replace(/\.ts$/, '.test-support.ts')}` });
  }
  return violations;
}
