import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureChange, git, initSingleCommit } from './git.js';
import { patchPaths } from './patch-paths.js';

async function preparedAndWorkspace(): Promise<{ prepared: string; ws: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-patch-paths-'));
  const prepared = path.join(root, 'prepared');
  await mkdir(path.join(prepared, 'src'), { recursive: true });
  await writeFile(path.join(prepared, 'src', 'a.js'), 'one\ntwo\n');
  await writeFile(path.join(prepared, 'gone.txt'), 'bye\n');
  await writeFile(path.join(prepared, 'run.sh'), 'echo hi\n');
  await writeFile(path.join(prepared, 'conftest.py'), '# config\n');
  await initSingleCommit(prepared, 'task t');
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
