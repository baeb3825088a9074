import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The worker's file name; it lives in `src/grade/checks/` as plain JavaScript. */
export const CHECK_WORKER_FILE = 'check-worker.mjs';

/**
 * The URL of the check worker (`check-worker.mjs`), found from the calling module's URL.
 *
 * From `src/grade/checks/*.ts` (vitest) it sits next to the caller. From the compiled
 * `dist/grade/checks/*.js` it would be there too, but tsc does not copy `.mjs` files, so the
 * fallback is the source folder `../../../src/grade/checks/` (package.json `files` must ship
 * it, as it ships `src/runners/reporters`).
 *
 * @param from - URL of a module in `grade/checks/`; defaults to this module.
 * @throws Error when neither folder holds the worker.
 */
export function resolveCheckWorker(from: string = import.meta.url): URL {
  const candidates = [new URL(`./${CHECK_WORKER_FILE}`, from), new URL(`../../../src/grade/checks/${CHECK_WORKER_FILE}`, from)];
  const found = candidates.find((candidate) => existsSync(fileURLToPath(candidate)));
  if (found) return found;
  const tried = candidates.map((c) => fileURLToPath(c)).join(', ');
  throw new Error(`bakeoff's check worker was not found: expected one of ${tried}`);
}
