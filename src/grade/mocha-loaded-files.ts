import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

/*
 * Files mocha loads into the test process before any test because its configuration names them:
 * `require` (root hooks, setup), `file` (loaded before the spec files) and `ui` (an interface
 * module given by path). They are ordinary files of the repo, so a glob cannot protect them;
 * they are read from the prepared repo's configuration — `.mocharc.json`, `.jsonc`, `.yaml`,
 * `.yml` at the root (mocha reads the one in its working directory), the `mocha` key of
 * package.json and the bare command's own `--require`/`-r`/`--file`/`--ui`/`-u` (and the
 * `--config`/`--package` files it names, configuration under another name) — and a
 * change to one is protected. A `.mocharc.js`/`.cjs` is code (protected itself); what it
 * requires cannot be known without running it, and is left to the tripwires.
 */

const KEYS = ['require', 'file', 'ui'] as const;
const FLAGS = /(?:^|\s)(?:--require|-r|--file|--ui|-u|--config|--package)(?:=|\s+)(?:'([^']*)'|"([^"]*)"|(\S+))/g;
const EXTENSIONS = ['', '.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.json'];

/** Repo-relative files the prepared repo's mocha configuration (and the command) loads. */
export async function mochaLoadedFiles(preparedRepo: string, command: string): Promise<Set<string>> {
  const names: string[] = [];
  for (const config of await configObjects(preparedRepo)) {
    for (const key of KEYS) {
      const value = config[key];
      for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') names.push(v);
    }
  }
  for (const m of command.matchAll(FLAGS)) names.push(m[1] ?? m[2] ?? m[3] ?? '');
  const files = new Set<string>();
  for (const name of names) {
    const rel = repoFile(preparedRepo, name);
    if (rel !== null) files.add(rel);
  }
  return files;
}

async function configObjects(repo: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  const read = (name: string): Promise<string | null> => readFile(path.join(repo, name), 'utf8').catch(() => null);
  for (const name of ['.mocharc.json', '.mocharc.jsonc', '.mocharc.yaml', '.mocharc.yml']) {
    const text = await read(name);
    if (text === null) continue;
    out.push(asObject(safe(() => (name.endsWith('.json') || name.endsWith('.jsonc') ? JSON.parse(withoutComments(text)) : parseYaml(text)))));
  }
  const pkg = await read('package.json');
  if (pkg !== null) out.push(asObject(asObject(safe(() => JSON.parse(pkg))).mocha));
  return out;
}

function safe(f: () => unknown): unknown {
  try {
    return f();
  } catch {
    return null;
  }
}

function asObject(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** JSON with `//` and `/* *\/` comments (mocha reads .mocharc.json(c) so) as plain JSON; strings are kept whole. */
export function withoutComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else out += c;
  }
  return out;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** `name` as a file of the repo (as mocha resolves a path: with or without its extension), or null for a package name. */
function repoFile(repo: string, name: string): string | null {
  if (name === '' || path.isAbsolute(name)) return null;
  const normal = path.posix.normalize(name.replace(/\\/g, '/'));
  if (normal.startsWith('../')) return null;
  for (const ext of EXTENSIONS) {
    const candidate = normal + ext;
    const full = path.join(repo, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return null;
}
