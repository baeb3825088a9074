import { lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Sandbox } from '../sandbox/index.js';
import { quotedPath } from '../util/index.js';

/*
 * `python -m pytest` puts the repo root first on sys.path, and pytest's default import mode
 * puts the folders of test files there too: a module the change adds in one of those folders
 * under the name of an installed one (`pytest.py`, `_pytest/`, `pluggy/`, `json.py`) is imported
 * in its place, by pytest itself. Such a file is protected.
 */

/** Top-level folders and files of `rel` under `dir` ('' = the root): the module name it would define there. */
function moduleAt(dir: string, rel: string): string | null {
  const prefix = dir === '' ? '' : `${dir}/`;
  if (!rel.startsWith(prefix)) return null;
  const rest = rel.slice(prefix.length);
  const first = rest.split('/')[0]!;
  if (rest.includes('/')) return /^[A-Za-z_][A-Za-z0-9_]*$/.test(first) ? first : null;
  const match = /^([A-Za-z_][A-Za-z0-9_]*)\.(py|pyc|so|pyd|pth)$/.exec(first);
  return match ? match[1]! : null;
}

/** Files the change added that shadow an installed module, one `path (why)` each. */
export async function pythonShadows(options: {
  readonly changedPaths: readonly string[];
  readonly preparedRepo: string;
  readonly testDirs: readonly string[];
  readonly installed: ReadonlySet<string>;
}): Promise<string[]> {
  const dirs = [...new Set(['', 'src', ...options.testDirs])];
  const out: string[] = [];
  for (const rel of options.changedPaths) {
    for (const dir of dirs) {
      const name = moduleAt(dir, rel);
      if (name === null || !options.installed.has(name)) continue;
      const defined = path.join(options.preparedRepo, dir, name);
      const existed = (await lstat(defined).catch(() => undefined)) ?? (await lstat(`${defined}.py`).catch(() => undefined));
      if (existed) continue;
      out.push(`${quotedPath(rel)} (shadows the installed Python module ${name}, which pytest would import instead)`);
      break;
    }
  }
  return out;
}

const cache = new Map<string, Promise<Set<string>>>();

/**
 * Top-level module names the sandbox's Python can import without the repo (standard library and
 * site-packages), asked of the interpreter itself in isolated mode, once per sandbox and PATH.
 */
export function installedPythonModules(sandbox: Sandbox, env: Readonly<Record<string, string>>): Promise<Set<string>> {
  const key = `${sandbox.name}\n${env.PATH ?? ''}`;
  let found = cache.get(key);
  if (!found) {
    found = askPython(sandbox, env);
    cache.set(key, found);
    found.catch(() => cache.delete(key));
  }
  return found;
}

const SCRIPT = 'import sys, pkgutil; print("\\n".join(sorted(set(sys.stdlib_module_names) | {m.name for m in pkgutil.iter_modules()} | set(sys.builtin_module_names))))';

async function askPython(sandbox: Sandbox, env: Readonly<Record<string, string>>): Promise<Set<string>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-pymods-'));
  try {
    const outputPath = path.join(dir, 'out.log');
    const quoted = `'${SCRIPT.replace(/'/g, `'\\''`)}'`;
    const result = await sandbox.exec({
      command: `cd / && (python -I -c ${quoted} || python3 -I -c ${quoted})`,
      cwd: '/tmp',
      env,
      timeoutMs: 60_000,
      network: 'none',
      outputPath,
      binds: [],
    });
    if (result.exitCode !== 0) return new Set();
    return new Set((await readFile(outputPath, 'utf8')).split('\n').map((l) => l.trim()).filter((l) => /^[A-Za-z_]\w*$/.test(l)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
