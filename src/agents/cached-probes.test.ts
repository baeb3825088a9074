import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProbeCache } from '../util/index.js';
import { useTempDirs } from '../util/temp-dirs.test-support.js';
import { cachedLevelSource, cachedProbeInstalled } from './cached-probes.js';
import { codex } from './harnesses/codex/index.js';
import type { Harness } from './harnesses/types.js';

const tempDir = useTempDirs();

/** An installed "CLI": a script that counts its starts in `calls` and prints `output`. */
async function fakeInstall(root: string, harness: Pick<Harness, 'name' | 'version' | 'bin'>, output: string): Promise<{ calls: () => Promise<number>; reinstall: (output: string) => Promise<void> }> {
  const dir = path.join(root, `${harness.name}-${harness.version}`);
  const calls = path.join(root, `${harness.name}.calls`);
  const write = async (text: string): Promise<void> => {
    await mkdir(path.dirname(path.join(dir, harness.bin)), { recursive: true });
    const tmp = path.join(dir, 'new-bin');
    await writeFile(tmp, `#!/bin/sh\necho x >> '${calls}'\ncat <<'EOF'\n${text}\nEOF\n`);
    await chmod(tmp, 0o755);
    // npm replaces files (a new inode), and gives them a fixed mtime
    const { rename, utimes } = await import('node:fs/promises');
    await utimes(tmp, new Date('1985-10-26T08:15:00Z'), new Date('1985-10-26T08:15:00Z'));
    await rename(tmp, path.join(dir, harness.bin));
  };
  await write(output);
  return { calls: async () => (await readFile(calls, 'utf8').catch(() => '')).split('\n').filter(Boolean).length, reinstall: write };
}

describe('cachedProbeInstalled', () => {
  it('asks the CLI once per install, and again when it is installed anew', async () => {
    const root = await tempDir('bakeoff-harnesses-');
    const probes = openProbeCache(await tempDir('bakeoff-cache-'));
    const harness = { ...codex, name: 'codex', version: '9.9.9', bin: 'node_modules/.bin/fake' } as Harness;
    const env = { PATH: process.env.PATH, BAKEOFF_HARNESS_DIR: root };
    const cli = await fakeInstall(root, harness, 'codex-cli 9.9.9');
    expect(await cachedProbeInstalled(harness, env, probes)).toEqual({ kind: 'installed', version: '9.9.9' });
    expect(await cachedProbeInstalled(harness, env, probes)).toEqual({ kind: 'installed', version: '9.9.9' });
    expect(await cli.calls()).toBe(1);
    await cli.reinstall('codex-cli 9.9.10');
    expect(await cachedProbeInstalled(harness, env, probes)).toEqual({ kind: 'installed', version: '9.9.10' });
    expect(await cli.calls()).toBe(2);
  });

  it('keeps no answer from a CLI that printed no version, and none for a missing install', async () => {
    const root = await tempDir('bakeoff-harnesses-');
    const probes = openProbeCache(await tempDir('bakeoff-cache-'));
    const harness = { ...codex, name: 'codex', version: '9.9.9', bin: 'node_modules/.bin/fake' } as Harness;
    const env = { PATH: process.env.PATH, BAKEOFF_HARNESS_DIR: root };
    expect(await cachedProbeInstalled(harness, env, probes)).toEqual({ kind: 'missing' });
    const cli = await fakeInstall(root, harness, 'no version here');
    expect(await cachedProbeInstalled(harness, env, probes)).toEqual({ kind: 'missing' });
    expect(await cachedProbeInstalled(harness, env, probes)).toEqual({ kind: 'missing' });
    expect(await cli.calls()).toBe(2);
  });
});

describe('cachedLevelSource (Codex)', () => {
  const catalog = (levels: string[]) => JSON.stringify({ models: [{ slug: 'gpt-test', supported_reasoning_levels: levels.map((effort) => ({ effort })) }] });

  it('keeps the bundled catalog under the install, and reads it again after a reinstall', async () => {
    const root = await tempDir('bakeoff-harnesses-');
    const probes = openProbeCache(await tempDir('bakeoff-cache-'));
    const harness = { ...codex, version: '9.9.9', bin: 'node_modules/.bin/fake' } as Harness;
    const env = { PATH: process.env.PATH, BAKEOFF_HARNESS_DIR: root, HOME: await tempDir('bakeoff-home-') };
    const cli = await fakeInstall(root, harness, catalog(['low', 'high']));
    const first = await cachedLevelSource(harness, env, probes);
    const second = await cachedLevelSource(harness, env, probes);
    expect(second.levels('gpt-test')).toEqual(['low', 'high']);
    expect(second.digest).toBe(first.digest);
    expect(await cli.calls()).toBe(1);
    await cli.reinstall(catalog(['medium']));
    expect((await cachedLevelSource(harness, env, probes)).levels('gpt-test')).toEqual(['medium']);
    expect(await cli.calls()).toBe(2);
  });

  it('reads a catalog from the user\'s Codex home every time (Codex refreshes it from the network)', async () => {
    const root = await tempDir('bakeoff-harnesses-');
    const probes = openProbeCache(await tempDir('bakeoff-cache-'));
    const harness = { ...codex, version: '9.9.9', bin: 'node_modules/.bin/fake' } as Harness;
    const env = { PATH: process.env.PATH, BAKEOFF_HARNESS_DIR: root, CODEX_HOME: await tempDir('bakeoff-codex-home-') };
    const cli = await fakeInstall(root, harness, catalog(['low']));
    await cachedLevelSource(harness, env, probes);
    await cachedLevelSource(harness, env, probes);
    // each read: the bundled catalog (kept after the first) and the home's (never kept)
    expect(await cli.calls()).toBe(3);
  });
});
