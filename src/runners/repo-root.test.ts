import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../util/temp-dirs.test-support.js';
import { readRepoRoots, recordRepoRoot, toRepoRelativePath } from './repo-root.js';

const tempDir = useTempDirs();

describe('recordRepoRoot and readRepoRoots', () => {
  it('give back the directory the command ran in, then the repo directory', async () => {
    const dir = await tempDir('bakeoff root ');
    spawnSync('sh', ['-c', recordRepoRoot(dir)], { cwd: dir });
    expect(await readRepoRoots({ reportDir: dir, repoDir: '/host/repo' })).toEqual([dir, '/host/repo']);
  });

  it('fall back to the repo directory when nothing was recorded', async () => {
    const dir = await tempDir('bakeoff-root-');
    await writeFile(path.join(dir, 'unrelated'), '');
    expect(await readRepoRoots({ reportDir: dir, repoDir: '/host/repo' })).toEqual(['/host/repo']);
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
