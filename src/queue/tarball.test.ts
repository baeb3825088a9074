import { chmod, mkdir, mkdtemp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { packFolder, unpackFolder } from './tarball.js';

const tmp = () => mkdtemp(path.join(os.tmpdir(), 'bakeoff-tarball-'));
const gnuTar = async (cwd: string, args: readonly string[]) => Buffer.from((await execa('tar', ['-czf', '-', ...args], { cwd, encoding: 'buffer' })).stdout);

describe('a folder through the fleet as a tarball', () => {
  it('comes back whole (files, folders, symlinks, modes) and packs the same bytes twice', async () => {
    const src = await tmp();
    await mkdir(path.join(src, 'order-1/grade/report'), { recursive: true });
    await writeFile(path.join(src, 'order-1/agent.log'), 'hello\n');
    await writeFile(path.join(src, 'order-1/run.sh'), '#!/bin/sh\n');
    await chmod(path.join(src, 'order-1/run.sh'), 0o755);
    await symlink('agent.log', path.join(src, 'order-1/latest'));
    const a = await packFolder(src);
    const b = await packFolder(src);
    expect(a.sha256).toBe(b.sha256);
    const out = path.join(await tmp(), 'out');
    await unpackFolder(a.bytes, out);
    expect(await readFile(path.join(out, 'order-1/agent.log'), 'utf8')).toBe('hello\n');
    expect((await stat(path.join(out, 'order-1/run.sh'))).mode & 0o777).toBe(0o755);
    expect(await readFile(path.join(out, 'order-1/latest'), 'utf8')).toBe('hello\n');
    expect(existsSync(path.join(out, 'order-1/grade/report'))).toBe(true);
  });

  it('never writes outside its folder, never keeps a setuid bit, and refuses hard links and devices', async () => {
    const src = await tmp();
    await writeFile(path.join(src, 'x'), 'escape\n');
    await writeFile(path.join(src, 'suid'), '#!/bin/sh\n');
    await chmod(path.join(src, 'suid'), 0o4755);
    const parent = await tmp();
    const out = path.join(parent, 'deep', 'out');
    await expect(unpackFolder(await gnuTar(src, ['--transform', 's,^x,../../x,', 'x']), out)).rejects.toThrow(/path contains '\.\.'/);
    expect(existsSync(path.join(parent, 'x'))).toBe(false);
    expect(existsSync(out)).toBe(false);
    await unpackFolder(await gnuTar(src, ['suid']), out);
    expect((await stat(path.join(out, 'suid'))).mode & 0o7777).toBe(0o755);

    await execa('ln', [path.join(src, 'x'), path.join(src, 'hard')]);
    const linked = path.join(await tmp(), 'linked');
    await expect(unpackFolder(await gnuTar(src, ['x', 'hard']), linked)).rejects.toThrow(/entries bakeoff never packs: hard \(Link\)/);
    expect(existsSync(linked)).toBe(false);
  });

  it('keeps a folder another process already unpacked (content-addressed) when asked to', async () => {
    const src = await tmp();
    await writeFile(path.join(src, 'a'), 'one\n');
    const out = path.join(await tmp(), 'bundle');
    await unpackFolder((await packFolder(src)).bytes, out, true);
    await writeFile(path.join(src, 'a'), 'two\n');
    await unpackFolder((await packFolder(src)).bytes, out, true);
    expect(await readFile(path.join(out, 'a'), 'utf8')).toBe('one\n');
    await unpackFolder((await packFolder(src)).bytes, out);
    expect(await readFile(path.join(out, 'a'), 'utf8')).toBe('two\n');
  });
});
