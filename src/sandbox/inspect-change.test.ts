import { execFileSync } from 'node:child_process';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedRepo } from './prepared-repo.test-support.js';
import { inspectChange } from './inspect-change.js';
import { createWorkspace, type Workspace } from './workspace.js';

const MiB = 1024 * 1024;
const open_: Workspace[] = [];

async function workspace(): Promise<{ prepared: string; ws: Workspace }> {
  const { root, prepared } = await preparedRepo('bakeoff-inspect-', { 'a.txt': 'one\n' }, '/node_modules\n');
  const ws = await createWorkspace(prepared, path.join(root, 'scratch'), { owner: null, diskBytes: 64 * MiB });
  open_.push(ws);
  return { prepared, ws };
}

async function sparse(file: string, bytes: number): Promise<void> {
  const handle = await open(file, 'w');
  await handle.truncate(bytes);
  await handle.close();
}

afterEach(async () => {
  for (const ws of open_.splice(0)) await ws.dispose();
});

describe('inspectChange', () => {
  it('passes an ordinary change', async () => {
    const { prepared, ws } = await workspace();
    await writeFile(path.join(ws.dir, 'a.txt'), 'two\n');
    await writeFile(path.join(ws.dir, 'b.txt'), 'new\n');
    expect(await inspectChange({ workspace: ws, preparedRepo: prepared, maxBytes: MiB })).toBeNull();
  });

  it('refuses a change bigger than the limit before git reads it, counting a sparse file at its full size', async () => {
    const { prepared, ws } = await workspace();
    await sparse(path.join(ws.dir, 'huge.bin'), 2 * 1024 * MiB);
    const problem = await inspectChange({ workspace: ws, preparedRepo: prepared, maxBytes: MiB });
    expect(problem?.reason).toBe('change-too-large');
    expect(problem?.detail).toContain('huge.bin 2147483648 bytes');
  });

  it('does not count setup outputs or files the change itself ignores', async () => {
    const { prepared, ws } = await workspace();
    await mkdir(path.join(ws.dir, 'node_modules'));
    await sparse(path.join(ws.dir, 'node_modules', 'big.bin'), 10 * MiB);
    await writeFile(path.join(ws.dir, '.gitignore'), 'build/\n');
    await mkdir(path.join(ws.dir, 'build'));
    await sparse(path.join(ws.dir, 'build', 'out.bin'), 10 * MiB);
    expect(await inspectChange({ workspace: ws, preparedRepo: prepared, maxBytes: MiB })).toBeNull();
  });

  it('refuses a nested git repository and a file name that is not UTF-8, with printable paths', async () => {
    const { prepared, ws } = await workspace();
    execFileSync('git', ['init', '-q', path.join(ws.dir, 'vendor', 'lib')]);
    await writeFile(path.join(ws.dir, '.gitmodules'), '[submodule "x"\n\tgarbage = \n');
    const nested = await inspectChange({ workspace: ws, preparedRepo: prepared, maxBytes: MiB });
    expect(nested).toEqual({ reason: 'unsupported-file', detail: expect.stringContaining('vendor/lib/.git') });

    const second = await workspace();
    await writeFile(Buffer.concat([Buffer.from(second.ws.dir + '/bad-'), Buffer.from([0xff, 0x1b]), Buffer.from('[31mname')]), 'x');
    const bad = await inspectChange({ workspace: second.ws, preparedRepo: second.prepared, maxBytes: MiB });
    expect(bad?.reason).toBe('unsupported-file');
    expect(bad?.detail).not.toContain('\u001b');
    expect(bad?.detail).toContain('\\x1b');
  });
});
