import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxMounts } from './sandbox-mounts.js';
import { toolchainMounts } from './toolchains.js';

describe('what every sandbox can read besides the task', () => {
  let home = '';
  const saved = process.env.HOME;
  beforeEach(async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-mounts-'));
    process.env.HOME = home;
    for (const dir of ['.cargo/bin', '.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde-1.0.999', '.pyenv/versions/3.11.7/lib/python3.11/site-packages/pytest-9.0.3.dist-info', '.pyenv/versions/3.11.7/lib/python3.11/site-packages/requests-2.99.0.dist-info']) {
      await mkdir(path.join(home, dir), { recursive: true });
    }
  });
  afterEach(async () => {
    process.env.HOME = saved;
    await rm(home, { recursive: true, force: true });
  });

  it('mounts cargo\'s binaries but not its registry and git caches, even when ~/.cargo/bin is on PATH', async () => {
    const targets = (await toolchainMounts(`${home}/.cargo/bin:/usr/bin`)).map((m) => m.target);
    expect(targets).toContain(path.join(home, '.cargo/bin'));
    expect(targets).not.toContain(path.join(home, '.cargo'));
  });

  it('lists /usr, /etc and each toolchain, with the packages installed in them and those an agent can read', async () => {
    const mounts = await sandboxMounts('/usr/bin');
    expect(mounts.slice(0, 2).map((m) => m.target)).toEqual(['/usr', '/etc']);
    const pyenv = mounts.find((m) => m.target === path.join(home, '.pyenv'))!;
    expect(pyenv.what).toBe('toolchain ~/.pyenv');
    // of the two installed there, pytest is readable; requests, installed by no task's setup, is hidden
    expect(pyenv.stores).toEqual([{ path: path.join(home, '.pyenv/versions/3.11.7/lib/python3.11/site-packages'), kind: 'python site-packages', packages: 2, readable: ['pytest'] }]);
  });
});
