import { readFile, rename, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStamp, openProbeCache } from './probe-cache.js';
import { useTempDirs } from './temp-dirs.test-support.js';

const tempDir = useTempDirs();

describe('openProbeCache', () => {
  it('answers from the cache under an equal key, and probes again when the key changes', async () => {
    const cache = openProbeCache(await tempDir('bakeoff-probes-'));
    let probes = 0;
    const probe = async () => `answer ${++probes}`;
    expect(await cache.remember('tool', { bin: 'a', size: 1 }, probe)).toBe('answer 1');
    // key order does not matter (canonical JSON)
    expect(await cache.remember('tool', { size: 1, bin: 'a' }, probe)).toBe('answer 1');
    expect(await cache.remember('tool', { bin: 'a', size: 2 }, probe)).toBe('answer 2');
    expect(await cache.remember('tool', { bin: 'a', size: 2 }, probe)).toBe('answer 2');
    expect(probes).toBe(2);
  });

  it('keeps nothing that `keep` refuses, and forgets on request', async () => {
    const cache = openProbeCache(await tempDir('bakeoff-probes-'));
    let probes = 0;
    const missing = async () => (++probes, null);
    expect(await cache.remember('v', 'k', missing, (v) => v !== null)).toBeNull();
    expect(await cache.remember('v', 'k', missing, (v) => v !== null)).toBeNull();
    expect(probes).toBe(2);
    await cache.remember('w', 'k', async () => 'x');
    cache.forget('w');
    expect(await cache.remember('w', 'k', async () => 'y')).toBe('y');
  });

  it('reads a damaged or foreign file as a miss and writes it whole again', async () => {
    const dir = await tempDir('bakeoff-probes-');
    const cache = openProbeCache(dir);
    await cache.remember('tool', 'k', async () => 'first');
    const file = path.join(dir, 'probes', 'tool.json');
    await writeFile(file, '{"schemaVersion": 1, "key": "k", "val');
    expect(await cache.remember('tool', 'k', async () => 'second')).toBe('second');
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ schemaVersion: 1, key: 'k', value: 'second' });
    await writeFile(file, JSON.stringify({ schemaVersion: 99, key: 'k', value: 'future' }));
    expect(await cache.remember('tool', 'k', async () => 'third')).toBe('third');
  });

  it('probes every time when the cache folder cannot be written', async () => {
    const dir = await tempDir('bakeoff-probes-');
    await writeFile(path.join(dir, 'probes'), 'a file where the folder should be');
    const cache = openProbeCache(dir);
    let probes = 0;
    await cache.remember('tool', 'k', async () => ++probes);
    await cache.remember('tool', 'k', async () => ++probes);
    expect(probes).toBe(2);
  });
});

describe('fileStamp', () => {
  it('follows symlinks, and changes when a file is replaced even with the same size and mtime', async () => {
    const dir = await tempDir('bakeoff-stamp-');
    const file = path.join(dir, 'bin.js');
    // npm gives every installed file the same fixed mtime
    const NPM_TIME = new Date('1985-10-26T08:15:00Z');
    await writeFile(file, 'v1');
    await utimes(file, NPM_TIME, NPM_TIME);
    await symlink(file, path.join(dir, 'link'));
    const first = fileStamp(path.join(dir, 'link'))!;
    expect(first.path).toBe(file);
    // reinstalled: a new file, same size, same fixed mtime
    await writeFile(path.join(dir, 'new.js'), 'v2');
    await utimes(path.join(dir, 'new.js'), NPM_TIME, NPM_TIME);
    await rename(path.join(dir, 'new.js'), file);
    const second = fileStamp(path.join(dir, 'link'))!;
    expect(second.size).toBe(first.size);
    expect(second.mtimeMs).toBe(first.mtimeMs);
    expect(second).not.toEqual(first);
    expect(fileStamp(path.join(dir, 'missing'))).toBeNull();
  });
});
