import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { quoteShellArg } from '../util/index.js';

/*
 * `npx <name>` decides at run time which program runs: the project's own package.json `bin` entry
 * of that name first (a change could point it at a wrapper), then `node_modules/.bin` of the
 * project and every folder above it, then the global bins, then the registry — reading
 * package.json, `.npmrc` files and npm's environment on the way. Grading takes that decision from
 * the prepared repo instead: where the prepared repo's own node_modules/.bin holds `<name>` (and
 * its package.json names no bin of that name), `npx <name>` becomes that file's absolute path in
 * the grading copy (read-only there: runner-code-binds.ts), with the folder first on PATH as npx
 * puts it. Anything else (`npx -p …`, `npx name@version`, a name only the registry knows) is left
 * to npx, whose inputs — package.json `bin`, `.npmrc` — are protected.
 */

/** `npx` as a command word (at the start, after `;`, `&`, `|`, `(` or a new line, after variable assignments), then a bare name. */
const NPX = /(^|[;&|(\n]\s*)((?:[A-Za-z_]\w*=(?:'[^']*'|"[^"]*"|[^\s'"])*\s+)*)npx\s+([A-Za-z0-9][\w.-]*)(?=\s|$)/g;

/** The bare command as grading runs it, with what it resolved. */
export interface ResolvedCommand {
  readonly command: string;
  /** Environment to add (PATH with the repo's node_modules/.bin first), empty when nothing was resolved. */
  readonly env: Readonly<Record<string, string>>;
  /** `npx <name>` → absolute path, for the record. */
  readonly resolved: readonly { readonly name: string; readonly path: string }[];
}

/**
 * `command` with each `npx <name>` the prepared repo can answer replaced by the absolute path of
 * `<repoDir>/node_modules/.bin/<name>` (the grading copy, which holds the prepared repo's
 * node_modules). `pathEnv` is the PATH the command would otherwise get.
 */
export function resolveRunnerCommand(command: string, options: { readonly preparedRepo: string; readonly repoDir: string; readonly pathEnv: string }): ResolvedCommand {
  const ownBins = packageBins(options.preparedRepo);
  const resolved: { name: string; path: string }[] = [];
  const rewritten = command.replace(NPX, (whole, before: string, assignments: string, name: string) => {
    if (ownBins.has(name) || !existsSync(path.join(options.preparedRepo, 'node_modules', '.bin', name))) return whole;
    const bin = path.join(options.repoDir, 'node_modules', '.bin', name);
    resolved.push({ name, path: bin });
    return `${before}${assignments}${quoteShellArg(bin)}`;
  });
  if (resolved.length === 0) return { command, env: {}, resolved };
  const binDir = path.join(options.repoDir, 'node_modules', '.bin');
  return { command: rewritten, env: { PATH: options.pathEnv === '' ? binDir : `${binDir}:${options.pathEnv}` }, resolved };
}

/** Names of the prepared repo's own package.json `bin` (npx runs those itself, from the project). */
function packageBins(repo: string): Set<string> {
  try {
    const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { name?: unknown; bin?: unknown };
    if (typeof pkg.bin === 'string' && typeof pkg.name === 'string') return new Set([pkg.name.replace(/^@[^/]+\//, '')]);
    if (pkg.bin !== null && typeof pkg.bin === 'object') return new Set(Object.keys(pkg.bin));
  } catch {
    // no package.json, or not JSON: no bins of its own
  }
  return new Set();
}
