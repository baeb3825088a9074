import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runnerCodeBinds } from './runner-code-binds.js';

describe('runnerCodeBinds', () => {
  it("shows the prepared repo's node_modules folders and virtualenvs read-only, with fresh writable folders for what vite writes", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-code-binds-'));
    const prepared = path.join(root, 'prepared');
    const repoDir = path.join(root, 'graded');
    for (const repo of [prepared, repoDir]) {
      for (const dir of ['node_modules/vitest', 'packages/a/node_modules/x', '.venv/lib', 'src/deep/er/node_modules']) await mkdir(path.join(repo, dir), { recursive: true });
      await writeFile(path.join(repo, '.venv/pyvenv.cfg'), 'home = /usr\n');
    }
    const binds = await runnerCodeBinds({ preparedRepo: prepared, repoDir, scratchDir: path.join(root, 'scratch'), owner: null });
    const readOnly = binds.filter((b) => !b.writable).map((b) => path.relative(repoDir, b.path));
    expect(readOnly).toEqual(['.venv', 'node_modules', 'packages/a/node_modules', 'src/deep/er/node_modules']);
    const writable = binds.filter((b) => b.writable);
    expect(writable.map((b) => path.relative(repoDir, b.path))).toEqual([
      'node_modules/.vite', 'node_modules/.vite-temp', 'packages/a/node_modules/.vite', 'packages/a/node_modules/.vite-temp', 'src/deep/er/node_modules/.vite', 'src/deep/er/node_modules/.vite-temp',
    ]);
    // the mount points exist in the grading copy, and each writable folder is a fresh one of the scratch folder
    for (const b of writable) {
      expect(existsSync(b.path)).toBe(true);
      expect(b.source?.startsWith(path.join(root, 'scratch'))).toBe(true);
    }
    // each read-only folder comes before the writable ones inside it (binds are mounted in order)
    expect(binds.findIndex((b) => b.path.endsWith('/node_modules'))).toBeLessThan(binds.findIndex((b) => b.path.endsWith('/node_modules/.vite')));
  });
});
