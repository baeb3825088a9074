import { copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file every reporters folder holds; its presence tells a real folder from a stale path. */
const MARKER = 'bakeoff_pytest_report.py';

/**
 * The absolute path of `src/runners/reporters/` (bakeoff's own pytest plugin, node:test and
 * mocha reporters), found from the calling module's URL.
 *
 * From `src/runners/*.ts` (vitest) it is `./reporters/`. From the compiled `dist/runners/*.js`
 * it would be `dist/runners/reporters/`, but tsc does not copy `.py`, `.mjs` and `.cjs` files,
 * so the fallback is the source folder `../../src/runners/reporters/` (shipped too:
 * package.json `files` lists it).
 *
 * @param from - URL of a module in `runners/`; defaults to this module.
 * @throws Error when neither folder holds the reporters.
 */
export function resolveReportersDir(from: string = import.meta.url): string {
  const candidates = [new URL('./reporters/', from), new URL('../../src/runners/reporters/', from)];
  for (const candidate of candidates) {
    const dir = fileURLToPath(candidate);
    if (existsSync(`${dir}${MARKER}`)) return dir.replace(/\/$/, '');
  }
  const tried = candidates.map((c) => fileURLToPath(c)).join(', ');
  throw new Error(`bakeoff's test reporters were not found: expected ${MARKER} in one of ${tried}`);
}

/**
 * Copies bakeoff's reporter `file` to `to` and returns `to`. The reporters are copied into the
 * report folder, the one harness folder a sandboxed test command is sure to see.
 */
export function copyReporter(file: string, to: string): string {
  copyFileSync(path.join(resolveReportersDir(), file), to);
  return to;
}
