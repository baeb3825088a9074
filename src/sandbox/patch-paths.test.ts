import { chmod, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureChange, git } from './git.js';
import { preparedRepo } from './prepared-repo.test-support.js';
import { patchPaths } from './patch-paths.js';

async function preparedAndWorkspace(): Promise<{ prepared: string; ws: string }> {
  const { root, prepared } = await preparedRepo('bakeoff-patch-paths-', { 'src/a.js': 'one\ntwo\n', 'gone.txt': 'bye\n', 'run.sh': 'echo hi\n', 'conftest.py': '# config\n' });
  const ws = path.join(root, 'ws');
  await git(['clone', '-q', '--no-hardlinks', prepared, ws], { cwd: root });
  return { prepared, ws };
}

describe('patchPaths', () => {
  it('lists exactly the paths captureChange reported for the same change', async () => {
    const { prepared, ws } = await preparedAndWorkspace();
    await writeFile(path.join(ws, 'src', 'a.js'), 'one\nTWO\n');
    await rm(path.join(ws, 'gone.txt'));
    await chmod(path.join(ws, 'run.sh'), 0o755);
    await writeFile(path.join(ws, 'conftest.py'), '# the agent was here\n');
    await writeFile(path.join(ws, 'bin.dat'), Buffer.from([0, 1, 2, 255, 0]));
    await mkdir(path.join(ws, 'dir with space'));
    await writeFile(path.join(ws, 'dir with space', 'ünïcode "q".txt'), 'x\n');
    await symlink('src/a.js', path.join(ws, 'link'));
    const change = await captureChange(prepared, ws);
    expect(change.paths.length).toBe(7);
    const read = await patchPaths(prepared, change.patch);
    expect([...read.paths].sort()).toEqual([...change.paths].sort());
    expect([...read.binary].sort()).toEqual([...change.binaryPaths].sort());
  });

  it('lists nothing for an empty patch or one git cannot read', async () => {
    const { prepared } = await preparedAndWorkspace();
    expect(await patchPaths(prepared, '')).toEqual({ paths: [], binary: [] });
    expect(await patchPaths(prepared, 'not a patch\n')).toEqual({ paths: [], binary: [] });
  });
});
