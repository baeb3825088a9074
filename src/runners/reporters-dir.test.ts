import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveReportersDir } from './reporters-dir.js';

const SOURCE_DIR = fileURLToPath(new URL('./reporters', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('resolveReportersDir', () => {
  it('finds the reporters next to the runners in the source tree', () => {
    const dir = resolveReportersDir();
    expect(dir).toBe(SOURCE_DIR);
    expect(existsSync(path.join(dir, 'node-test-reporter.mjs'))).toBe(true);
  });

  it('falls back to the source folder from the compiled dist/runners, where tsc copied no reporters', () => {
    const compiled = pathToFileURL(path.join(PROJECT_ROOT, 'dist/runners/pytest.js')).href;
    expect(resolveReportersDir(compiled)).toBe(SOURCE_DIR);
  });

  it('throws, naming the folders it tried, when there are no reporters', () => {
    expect(() => resolveReportersDir('file:///nowhere/a/b/c/x.js')).toThrow(/bakeoff_pytest_report\.py.*\/nowhere\/a\/b\/c\/reporters\//);
  });
});
