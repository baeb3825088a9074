import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRepoRoots, recordRepoRoot, toRepoRelativePath } from './repo-root.js';

let tempDir: string | undefined;
afterEach(async () => {
  if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true });
  tempDir = undefined;
});

describe('recordRepoRoot and readRepoRoots', () => {
  it('give back the directory the command ran in, then the repo directory', async () => {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff root '));
    spawnSync('sh', ['-c', recordRepoRoot(tempDir)], { cwd: tempDir });
    expect(await readRepoRoots({ reportDir: tempDir, repoDir: '/host/repo' })).toEqual([tempDir, '/host/repo']);
  });

  it('fall back to the repo directory when nothing was recorded', async () => {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-root-'));
    await writeFile(path.join(tempDir, 'unrelated'), '');
    expect(await readRepoRoots({ reportDir: tempDir, repoDir: '/host/repo' })).toEqual(['/host/repo']);
  });
});

describe('toRepoRelativePath', () => {
  const roots = ['/workspace', '/host/repo'];

  it('makes a path relative to the first root that holds it', () => {
    expect(toRepoRelativePath('/workspace/test/a.test.js', roots)).toBe('test/a.test.js');
    expect(toRepoRelativePath('/host/repo/test/a.test.js', roots)).toBe('test/a.test.js');
  });

  it('leaves relative paths and paths outside every root as they are', () => {
    expect(toRepoRelativePath('test/a.test.js', roots)).toBe('test/a.test.js');
    expect(toRepoRelativePath('/workspace-other/a.js', roots)).toBe('/workspace-other/a.js');
    expect(toRepoRelativePath('/elsewhere/a.js', roots)).toBe('/elsewhere/a.js');
  });
});
