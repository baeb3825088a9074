import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapArgs } from './bwrap-sandbox.js';
import { findPackageStores, packageMasks, requires, storeView } from './package-stores.js';

/** A distribution's metadata folder and files in `site`. */
async function dist(site: string, meta: string, files: Record<string, string>, installed: readonly string[]): Promise<void> {
  await mkdir(path.join(site, meta), { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(site, meta, name), text);
  for (const entry of installed) {
    if (entry.endsWith('/')) await mkdir(path.join(site, entry), { recursive: true });
    else await writeFile(path.join(site, entry), '');
  }
}

describe('the machine\'s package folders, as a sandbox shows them', () => {
  let root = '';
  let site = '';
  let node = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-stores-'));
    site = path.join(root, 'versions/3.11.7/lib/python3.11/site-packages');
    node = path.join(root, 'versions/node/v20.1.0/lib/node_modules');
    await mkdir(path.join(site, '__pycache__'), { recursive: true });
    const record = (paths: readonly string[]): string => paths.map((p) => `${p},sha256=x,1`).join('\n');
    await dist(site, 'pytest-9.0.3.dist-info', {
      METADATA: [
        'Name: pytest',
        'Requires-Dist: pluggy<2,>=1.5',
        'Requires-Dist: colorama>=0.4; sys_platform == "win32"',
        'Requires-Dist: tomli>=1; python_version < "3.11"',
        'Requires-Dist: requests; extra == "dev"',
      ].join('\n'),
      RECORD: record(['pytest/__init__.py', '_pytest/main.py', 'py.py', '__pycache__/py.cpython-311.pyc', '../../../bin/pytest', 'pytest-9.0.3.dist-info/RECORD']),
    }, ['pytest/', '_pytest/', 'py.py']);
    await dist(site, 'pluggy-1.6.0.dist-info', { METADATA: 'Name: pluggy\n', RECORD: record(['pluggy/__init__.py']) }, ['pluggy/']);
    // installed here, but asked for only on other platforms, other Pythons or as an extra
    for (const name of ['colorama', 'tomli', 'requests']) await dist(site, `${name}-1.0.dist-info`, { METADATA: `Name: ${name}\n`, RECORD: record([`${name}/__init__.py`]) }, [`${name}/`]);
    // a newer release of a task's own project, with a .pth file of its own; and setuptools as an egg-info with top_level.txt
    await dist(site, 'flask-3.1.3.dist-info', { METADATA: 'Name: flask\n', RECORD: record(['flask/__init__.py', 'flask-editable.pth']) }, ['flask/', 'flask-editable.pth']);
    await dist(site, 'setuptools-66.1.1.egg-info', { 'PKG-INFO': 'Name: setuptools\n', 'top_level.txt': '_distutils_hack\npkg_resources\nsetuptools\n' }, ['setuptools/', 'pkg_resources/', '_distutils_hack/']);
    await writeFile(path.join(site, 'README.txt'), '');
    for (const name of ['npm', 'corepack', 'typescript', '@scope/tool']) await mkdir(path.join(node, name), { recursive: true });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds site-packages and global node modules under a toolchain', () => {
    expect(findPackageStores(root)).toEqual([
      { path: site, kind: 'python site-packages' },
      { path: node, kind: 'node global modules' },
    ]);
  });

  it('keeps pytest with what it requires on this Python and platform, pip and setuptools; hides everything else', () => {
    const view = storeView(site, 'python site-packages');
    expect(view.installed).toEqual(['colorama', 'flask', 'pluggy', 'pytest', 'requests', 'setuptools', 'tomli']);
    expect(view.readable).toEqual(['pluggy', 'pytest', 'setuptools']);
    // no __pycache__ (every module's bytecode), no bin script outside the folder, no other .pth
    expect(view.keep).toEqual(['_distutils_hack', '_pytest', 'pkg_resources', 'pluggy', 'pluggy-1.6.0.dist-info', 'py.py', 'pytest', 'pytest-9.0.3.dist-info', 'setuptools', 'setuptools-66.1.1.egg-info']);
  });

  it('weighs python_version markers against the folder\'s own Python', () => {
    expect(requires(path.join(site, 'pytest-9.0.3.dist-info'), [3, 10])).toEqual(['pluggy', 'tomli']);
    expect(requires(path.join(site, 'pytest-9.0.3.dist-info'), [3, 11])).toEqual(['pluggy']);
  });

  it('keeps node\'s package managers only', () => {
    const view = storeView(node, 'node global modules');
    expect(view.installed).toEqual(['@scope/tool', 'corepack', 'npm', 'typescript']);
    expect(view.keep).toEqual(['corepack', 'npm']);
  });

  it('shows each folder as a view of its kept entries, made once, mounted over it', async () => {
    const views = path.join(root, 'views');
    // a killed bakeoff's half-made view, an hour and more old, and one being made now
    const old = path.join(views, '.making-old');
    const now = path.join(views, '.making-now');
    await mkdir(old, { recursive: true });
    await mkdir(now);
    await utimes(old, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
    const masks = await packageMasks([root], views);
    expect([existsSync(old), existsSync(now)]).toEqual([false, true]);
    await rm(now, { recursive: true });
    expect(masks.map((m) => m.target)).toEqual([site, node]);
    const [siteView, nodeView] = masks.map((m) => m.source);
    expect((await readdir(siteView!)).sort()).toEqual(storeView(site, 'python site-packages').keep);
    expect((await readdir(nodeView!)).sort()).toEqual(['corepack', 'npm']);
    // hard links of the host's files, not copies; the view readable by the sandbox's uid
    const record = path.join('pytest-9.0.3.dist-info', 'RECORD');
    expect((await stat(path.join(siteView!, record))).ino).toBe((await stat(path.join(site, record))).ino);
    expect((await stat(siteView!)).mode & 0o777).toBe(0o755);
    // made once: a second sandbox reuses it; an upgrade on the host makes a new one
    expect((await packageMasks([root], views)).map((m) => m.source)).toEqual([siteView, nodeView]);
    await rm(path.join(site, 'pluggy-1.6.0.dist-info'), { recursive: true });
    await dist(site, 'pluggy-1.7.0.dist-info', { METADATA: 'Name: pluggy\n', RECORD: 'pluggy/__init__.py,,\n' }, []);
    expect((await packageMasks([root], views))[0]!.source).not.toBe(siteView);
    const args = bwrapArgs(
      { uid: 64123, limits: { memoryBytes: 1, pids: 1, cpus: 1 }, tmpBytes: 1, homeBytes: 1, tools: [{ source: '/staged/tool', target: root }], masks },
      { command: 'true', cwd: '/tmp', env: {}, timeoutMs: 1, network: 'none', outputPath: '/dev/null', binds: [] },
    );
    // after the toolchain's own mount, one read-only mount per folder
    expect(args.indexOf(root)).toBeLessThan(args.indexOf(site));
    expect(args.slice(args.indexOf(site) - 2, args.indexOf(site) + 4)).toEqual(['--ro-bind', siteView, site, '--ro-bind', nodeView, node]);
  });
});
