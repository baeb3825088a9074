import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { preparedPytestConfig } from '../runners/index.js';
import { listTree } from '../util/index.js';

/*
 * Modules pytest loads as plugins before it collects a test because its configuration names
 * them: `-p <module>` in the bare command or in the prepared configuration's `addopts`, and
 * `pytest_plugins = [...]` in a conftest.py. When such a module is a file of the repo (and so are
 * the packages above it, whose __init__.py runs first), it is configuration under another name,
 * like a conftest.py: a change to it is protected. Read from the prepared repo only.
 */

/** `-p name`, `-pname`, `-p=name` in a list of words; `no:` (a plugin switched off) is not a module. */
function pluginFlags(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const name = word === '-p' ? words[++i] : word.startsWith('-p') && !word.startsWith('--') ? word.slice(2).replace(/^=/, '') : undefined;
    if (name !== undefined && name !== '' && !name.startsWith('no:')) out.push(name);
  }
  return out;
}

const words = (text: string): string[] => text.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, '')).filter((w) => w !== '');

/** `addopts` of the prepared configuration file (ini sections or TOML tables), as words. */
function addopts(file: string, text: string): string[] {
  if (file.endsWith('.toml')) {
    let doc: Record<string, unknown>;
    try {
      doc = parseToml(text) as Record<string, unknown>;
    } catch {
      return [];
    }
    const tool = (doc.tool ?? {}) as Record<string, Record<string, unknown>>;
    const table = (tool.pytest?.ini_options ?? tool.pytest ?? doc.pytest ?? {}) as Record<string, unknown>;
    const value = table.addopts;
    return Array.isArray(value) ? value.flatMap((v) => (typeof v === 'string' ? words(v) : [])) : typeof value === 'string' ? words(value) : [];
  }
  // ini: `addopts = …` and the indented lines that continue it
  const match = /^addopts\s*[=:](.*(?:\n[ \t]+.*)*)/m.exec(text);
  return match ? words(match[1]!) : [];
}

/** Module names in `pytest_plugins = "a"`, `= ["a", "b.c"]`, `= ("a",)`. */
export function pytestPluginsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^pytest_plugins\s*=\s*([\s\S]*?)(?:\n(?=\S)|(?![\s\S]))/gm)) {
    for (const s of m[1]!.matchAll(/['"]([\w.]+)['"]/g)) out.push(s[1]!);
  }
  return out;
}

/** The repo files importing module `name` runs (the module and every package __init__.py above it), at the root or under src/. */
function moduleFiles(repo: string, name: string): string[] {
  const parts = name.split('.');
  if (!parts.every((p) => /^[A-Za-z_]\w*$/.test(p))) return [];
  const out: string[] = [];
  const isFile = (rel: string): boolean => existsSync(path.join(repo, rel)) && statSync(path.join(repo, rel)).isFile();
  for (const base of ['', 'src/']) {
    const candidates = [`${base}${parts.join('/')}.py`, `${base}${parts.join('/')}/__init__.py`];
    for (let i = 1; i < parts.length; i++) candidates.push(`${base}${parts.slice(0, i).join('/')}/__init__.py`);
    out.push(...candidates.filter(isFile));
  }
  return out;
}

const cache = new Map<string, Promise<Set<string>>>();

/** Repo-relative files the prepared repo's pytest configuration (and the command) loads as plugins; cached per prepared repo and command. */
export function pytestLoadedFiles(preparedRepo: string, command: string): Promise<Set<string>> {
  const key = `${preparedRepo}\n${command}`;
  let found = cache.get(key);
  if (!found) {
    found = findLoaded(preparedRepo, command);
    cache.set(key, found);
  }
  return found;
}

async function findLoaded(preparedRepo: string, command: string): Promise<Set<string>> {
  const names = pluginFlags(words(command));
  const config = preparedPytestConfig(command, preparedRepo);
  if (config !== null) names.push(...pluginFlags(addopts(config, await readFile(path.join(preparedRepo, config), 'utf8').catch(() => ''))));
  for (const entry of await listTree(preparedRepo).catch(() => [])) {
    if (entry.type === 'file' && path.posix.basename(entry.rel) === 'conftest.py') {
      names.push(...pytestPluginsOf(await readFile(path.join(preparedRepo, entry.rel), 'utf8').catch(() => '')));
    }
  }
  return new Set(names.flatMap((name) => moduleFiles(preparedRepo, name)));
}
