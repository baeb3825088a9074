import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonBytecode, pythonFolders } from './python-bytecode.js';

describe("the machine's Python bytecode, laid out for PYTHONPYCACHEPREFIX", () => {
  let root = '';
  let lib = '';
  let views = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-bytecode-'));
    views = path.join(root, 'views');
    lib = path.join(root, 'versions/3.11.7/lib/python3.11');
    for (const dir of ['__pycache__', 'json/__pycache__', 'site-packages/pytest/__pycache__']) await mkdir(path.join(lib, dir), { recursive: true });
    await writeFile(path.join(lib, '__pycache__/os.cpython-311.pyc'), 'os');
    await writeFile(path.join(lib, '__pycache__/os.cpython-311.opt-1.pyc'), 'optimised');
    await writeFile(path.join(lib, 'json/__pycache__/__init__.cpython-311.pyc'), 'json');
    await writeFile(path.join(lib, 'site-packages/pytest/__pycache__/main.cpython-311.pyc'), 'pytest');
    await writeFile(path.join(lib, 'site-packages/pytest/__pycache__/stray.txt'), 'not bytecode');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("finds each toolchain's lib/python3.X from its site-packages", () => {
    expect(pythonFolders([root])).toEqual([lib]);
    expect(pythonFolders([path.join(root, 'nothing-here')])).toEqual([]);
  });

  it('links each compiled module where Python looks for it under the prefix, and nothing else', async () => {
    const view = await pythonBytecode([root], views);
    expect(view).not.toBeNull();
    const under = (p: string): string => path.join(view!, p);
    expect(existsSync(under(path.join(lib, 'os.cpython-311.pyc')))).toBe(true);
    expect(existsSync(under(path.join(lib, 'json/__init__.cpython-311.pyc')))).toBe(true);
    expect(existsSync(under(path.join(lib, 'site-packages/pytest/main.cpython-311.pyc')))).toBe(true);
    // the same file (a hard link), not a copy that could drift
    expect((await stat(under(path.join(lib, 'os.cpython-311.pyc')))).ino).toBe((await stat(path.join(lib, '__pycache__/os.cpython-311.pyc'))).ino);
    expect(existsSync(under(path.join(lib, 'os.cpython-311.opt-1.pyc')))).toBe(false);
    expect(existsSync(under(path.join(lib, 'site-packages/pytest/stray.txt')))).toBe(false);
    // Python's layout: no __pycache__ folder under the prefix
    expect(await readdir(under(lib))).toEqual(['json', 'os.cpython-311.pyc', 'site-packages']);
  });

  it('is made once, and made anew when a Python folder changes (an install or removal)', async () => {
    const first = await pythonBytecode([root], views);
    expect(await pythonBytecode([root], views)).toBe(first);
    await utimes(lib, new Date(), new Date(Date.now() + 5_000));
    const second = await pythonBytecode([root], views);
    expect(second).not.toBe(first);
    expect(existsSync(path.join(second!, lib, 'os.cpython-311.pyc'))).toBe(true);
  });

  it('is null where there is no Python', async () => {
    expect(await pythonBytecode([path.join(root, 'nothing-here')], views)).toBeNull();
  });
});
