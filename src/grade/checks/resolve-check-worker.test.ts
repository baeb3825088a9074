import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveCheckWorker } from './start-check-worker.js';

const SOURCE_WORKER = fileURLToPath(new URL('./check-worker.mjs', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DIST_RUN_CHECKS = path.join(PROJECT_ROOT, 'dist/grade/checks/run-checks.js');

describe('resolveCheckWorker', () => {
  it('finds the worker next to the caller in the source tree', () => {
    expect(fileURLToPath(resolveCheckWorker())).toBe(SOURCE_WORKER);
  });

  it('falls back to the source folder from the compiled dist/grade/checks, where tsc copied no .mjs', () => {
    const compiled = pathToFileURL(path.join(PROJECT_ROOT, 'dist/grade/checks/start-check-worker.js')).href;
    expect(fileURLToPath(resolveCheckWorker(compiled))).toBe(SOURCE_WORKER);
  });

  it('throws, naming the places it looked, when there is no worker', () => {
    expect(() => resolveCheckWorker('file:///nowhere/a/b/c/x.js')).toThrow(/check worker was not found: expected one of \/nowhere\/a\/b\/c\/check-worker\.mjs, \/nowhere\/src\/grade\/checks\/check-worker\.mjs/);
  });

  // `npm test` builds first; a bare `vitest run` without a build skips this.
  it.skipIf(!existsSync(DIST_RUN_CHECKS))('runs checks from the compiled dist under plain Node', () => {
    const script = `
import { runChecks } from ${JSON.stringify(pathToFileURL(DIST_RUN_CHECKS).href)};
const files = { 'src/index.js': "import { k } from './k.js'; export const f = (x) => x * k; export const spin = () => { for (;;) {} };", 'src/k.js': 'export const k = 3;' };
const results = await runChecks({ files, entry: 'src/index.js', checks: [{ id: 'a', call: 'f', input: 2, expected: 6 }, { id: 'b', call: 'spin', input: null, expected: 0 }], limits: { cpuMs: 100 } });
process.stdout.write(JSON.stringify(results.map((r) => [r.id, r.passed, r.failure ?? null])));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([
      ['a', true, null],
      ['b', false, 'timeout'],
    ]);
  });
});
