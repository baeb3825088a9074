import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProbeCache } from '../util/index.js';
import { GeneratorError, keepGeneratedChecks, keptOrGeneratedChecks, type GeneratedChecksCache, type GeneratedSet } from './generate-checks.js';

describe('generated check sets kept on this machine', () => {
  const set: GeneratedSet = { checks: [{ id: 'c1', call: 'f', input: [1, { a: [2] }], expected: 3 }], digest: 'd1' };
  const task = { admissionHash: 'h1' };

  it('gives a bake the set admission kept, for the same task, order, seed, level, Python and bakeoff only; else runs the generator', async () => {
    const probes = openProbeCache(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-kept-checks-')));
    const cache: GeneratedChecksCache = { probes, runtime: { python: 'Python 3.11.7', bakeoff: '0.1.0' } };
    keepGeneratedChecks(cache, task, 1, 7, 2, set);
    // no generator in this folder: a set given is the kept one, a set not kept fails to generate
    const order = { index: 1, hiddenDir: path.join(os.tmpdir(), 'bakeoff-no-such-hidden-dir') };
    expect(await keptOrGeneratedChecks(cache, task, order, 7, 2)).toEqual(set);
    const misses = [
      keptOrGeneratedChecks(cache, { admissionHash: 'h2' }, order, 7, 2),
      keptOrGeneratedChecks(cache, task, { ...order, index: 2 }, 7, 2),
      keptOrGeneratedChecks(cache, task, order, 8, 2),
      keptOrGeneratedChecks(cache, task, order, 7, 3),
      keptOrGeneratedChecks({ ...cache, runtime: { ...cache.runtime, python: 'Python 3.12.1' } }, task, order, 7, 2),
      keptOrGeneratedChecks({ ...cache, runtime: { ...cache.runtime, bakeoff: '0.2.0' } }, task, order, 7, 2),
    ];
    for (const miss of misses) await expect(miss).rejects.toBeInstanceOf(GeneratorError);
  });
});
