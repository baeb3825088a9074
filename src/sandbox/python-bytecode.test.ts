import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../util/temp-dirs.test-support.js';
import { pythonBytecode, pythonFolders } from './python-bytecode.js';

const tempDir = useTempDirs();

/** A toolchain root holding one Python's lib folder with compiled modules (and what is not one); its lib folder. */
async function toolchain(root: string): Promise<string> {
  const lib = path.join(root, 'versions/3.11.7/lib/python3.11');
  const files: Record<string, string> = {
    '__pycache__/os.cpython-311.pyc': 'os',
    '__pycache__/os.cpython-311.opt-1.pyc': 'optimised',
    'json/__pycache__/__init__.cpython-311.pyc': 'json',
    'site-packages/pytest/__pycache__/main.cpython-311.pyc': 'pytest',
    'site-packages/pytest/__pycache__/stray.txt': 'not bytecode',
  };
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(lib, file)), { recursive: true });
    await writeFile(path.join(lib, file), text);
  }
  return lib;
}

describe("the machine's Python bytecode, laid out for PYTHONPYCACHEPREFIX", () => {
  it("finds each toolchain's lib/python3.X from its site-packages", async () => {
    const root = await tempDir('bakeoff-bytecode-');
    const lib = await toolchain(root);
    expect(pythonFolders([root])).toEqual([lib]);
    expect(pythonFolders([path.join(root, 'nothing-here')])).toEqual([]);
  });

  it('links each compiled module where Python looks for it under the prefix, and nothing else', async () => {
    const root = await tempDir('bakeoff-bytecode-');
    const lib = await toolchain(root);
    const view = await pythonBytecode([root], path.join(root, 'views'));
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
    const root = await tempDir('bakeoff-bytecode-');
    const lib = await toolchain(root);
    const views = path.join(root, 'views');
    const first = await pythonBytecode([root], views);
    expect(await pythonBytecode([root], views)).toBe(first);
    await utimes(lib, new Date(), new Date(Date.now() + 5_000));
    const second = await pythonBytecode([root], views);
    expect(second).not.toBe(first);
    expect(existsSync(path.join(second!, lib, 'os.cpython-311.pyc'))).toBe(true);
  });

  it('is null where there is no Python', async () => {
    const root = await tempDir('bakeoff-bytecode-');
    expect(await pythonBytecode([root], path.join(root, 'views'))).toBeNull();
  });
});
