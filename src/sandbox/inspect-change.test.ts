import { execFileSync } from 'node:child_process';
import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { preparedRepo } from './prepared-repo.test-support.js';
import { inspectChange, WORKSPACE_BOUNDS } from './inspect-change.js';
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
    expect(problem?.paths).toEqual(['huge.bin']);
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
    expect(nested).toEqual({ reason: 'unsupported-file', detail: expect.stringContaining('vendor/lib/.git'), paths: [expect.stringContaining('vendor/lib')] });

    const second = await workspace();
    await writeFile(Buffer.concat([Buffer.from(second.ws.dir + '/bad-'), Buffer.from([0xff, 0x1b]), Buffer.from('[31mname')]), 'x');
    const bad = await inspectChange({ workspace: second.ws, preparedRepo: second.prepared, maxBytes: MiB });
    expect(bad?.reason).toBe('unsupported-file');
    expect(bad?.detail).not.toContain('\u001b');
    expect(bad?.detail).toContain('\\x1b');
  });

  it('refuses a path longer than the system allows and folders nested thousands deep as unsupported files, never throwing', async () => {
    const { prepared, ws } = await workspace();
    // made as an agent makes it: one folder at a time, from inside the last one (relative paths only)
    const nest = (dir: string, name: string, levels: number): void => {
      const script = `import os\nos.chdir(${JSON.stringify(dir)})\nfor _ in range(${levels}):\n    os.mkdir(${JSON.stringify(name)})\n    os.chdir(${JSON.stringify(name)})\nopen("f", "w").write("x")\n`;
      execFileSync('python3', ['-c', script]);
    };
    nest(ws.dir, 'd'.repeat(250), 20);
    const tooLong = await inspectChange({ workspace: ws, preparedRepo: prepared, maxBytes: MiB });
    expect(tooLong?.reason).toBe('unsupported-file');
    expect(tooLong?.detail).toContain(`a path longer than ${WORKSPACE_BOUNDS.pathBytes} bytes`);

    const second = await workspace();
    nest(second.ws.dir, 'a', 3000);
    const deep = await inspectChange({ workspace: second.ws, preparedRepo: second.prepared, maxBytes: MiB });
    expect(deep?.reason).toBe('unsupported-file');
    expect(deep?.detail).toContain(`nested more than ${WORKSPACE_BOUNDS.depth} folders deep`);
  });

  it('lets an ignored folder be as deep as it likes', async () => {
    const { prepared, ws } = await workspace();
    execFileSync('sh', ['-c', `cd '${ws.dir}' && mkdir node_modules && cd node_modules && for i in $(seq 150); do mkdir a && cd a; done && echo x > f`]);
    expect(await inspectChange({ workspace: ws, preparedRepo: prepared, maxBytes: MiB })).toBeNull();
  });

  it('refuses a change of more files than the bound (empty files and links too), and a workspace of more entries than it walks', async () => {
    const bounds = { ...WORKSPACE_BOUNDS, files: 300, entries: 2000 };
    const { prepared, ws } = await workspace();
    execFileSync('sh', ['-c', `cd '${ws.dir}' && mkdir m && cd m && seq 1 200 | xargs touch && for i in $(seq 1 150); do ln -s x l$i; done`]);
    const many = await inspectChange({ workspace: ws, preparedRepo: prepared, maxBytes: MiB, bounds });
    expect(many).toEqual({ reason: 'change-too-large', detail: expect.stringContaining('adds or changes 350 files, more than 300') });

    const ignored = await workspace();
    execFileSync('sh', ['-c', `cd '${ignored.ws.dir}' && mkdir node_modules && cd node_modules && seq 1 1000 | xargs touch`]);
    expect(await inspectChange({ workspace: ignored.ws, preparedRepo: ignored.prepared, maxBytes: MiB, bounds })).toBeNull();

    const flood = await workspace();
    execFileSync('sh', ['-c', `cd '${flood.ws.dir}' && mkdir node_modules && cd node_modules && seq 1 2500 | xargs touch`]);
    const walked = await inspectChange({ workspace: flood.ws, preparedRepo: flood.prepared, maxBytes: MiB, bounds });
    expect(walked).toEqual({ reason: 'change-too-large', detail: expect.stringContaining('more than 2000 new files and folders') });
  });
});
