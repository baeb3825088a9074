import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where pytest would find its configuration at the repo root, in pytest's own order: the first
 * of pytest.ini, .pytest.ini, pyproject.toml with a `[tool.pytest.ini_options]` or
 * `[tool.pytest]` table, tox.ini with `[pytest]`, setup.cfg with `[tool:pytest]`.
 */
const CANDIDATES: readonly { readonly file: string; readonly holds: (text: string) => boolean }[] = [
  { file: 'pytest.ini', holds: () => true },
  { file: '.pytest.ini', holds: () => true },
  { file: 'pyproject.toml', holds: (t) => /^\s*\[tool\.pytest(\.ini_options)?\]\s*$/m.test(t) },
  { file: 'tox.ini', holds: (t) => /^\s*\[pytest\]\s*$/m.test(t) },
  { file: 'setup.cfg', holds: (t) => /^\s*\[tool:pytest\]\s*$/m.test(t) },
];

/**
 * The `-c <file> --rootdir=.` arguments that make pytest read the prepared repo's
 * configuration and nothing else: the file the bare command names with `-c`/`--config-file`,
 * else the one pytest would find at the repo root, copied from `configSource` (the prepared
 * repo) into `configDir`; a bare `[pytest]` file when there is none. The change may then add or
 * edit any pytest.ini, pyproject.toml, tox.ini or setup.cfg anywhere: pytest never reads it.
 * `--rootdir=.` keeps test ids relative to where the command runs (the repo root).
 */
export function pytestConfigArgs(command: string, configSource: string, configDir: string): string[] {
  const found = namedConfig(command) ?? CANDIDATES.find((c) => holds(path.join(configSource, c.file), c.holds))?.file;
  const source = found === undefined ? undefined : path.join(configSource, found);
  if (source !== undefined && existsSync(source)) {
    const target = path.join(configDir, path.basename(source));
    copyFileSync(source, target);
    return ['-c', target, '--rootdir=.'];
  }
  const target = path.join(configDir, 'pytest.ini');
  writeFileSync(target, '[pytest]\n');
  return ['-c', target, '--rootdir=.'];
}

/** The prepared repo's pytest configuration file as pytest would pick it (see {@link pytestConfigArgs}), repo-relative, or null. */
export function preparedPytestConfig(command: string, preparedRepo: string): string | null {
  const named = namedConfig(command);
  if (named !== undefined) return existsSync(path.join(preparedRepo, named)) ? named : null;
  return CANDIDATES.find((c) => holds(path.join(preparedRepo, c.file), c.holds))?.file ?? null;
}

function holds(file: string, test: (text: string) => boolean): boolean {
  return existsSync(file) && test(readFileSync(file, 'utf8'));
}

/** The config file a bare command gives pytest itself (`-c X`, `--config-file X`, `--config-file=X`). */
function namedConfig(command: string): string | undefined {
  const words = command.split(/\s+/).map((w) => w.replace(/^['"]|['"]$/g, ''));
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if ((word === '-c' || word === '--config-file') && words[i + 1] !== undefined) return words[i + 1];
    if (word.startsWith('--config-file=')) return word.slice('--config-file='.length);
  }
  return undefined;
}
