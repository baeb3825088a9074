import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { Suite } from '../suite/index.js';
import type { RunRecord } from '../types.js';
import { refuseOtherSuite } from './one-suite-per-folder.js';

const HASH = 'a'.repeat(64);
const CONTROLS = 'c'.repeat(64);

describe('refuseOtherSuite', () => {
  it('lets the same suite and controls bake on, and refuses another suite, a changed one and other controls', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-one-suite-'));
    const store = openStore(dir, { create: true });
    const run = {
      id: 'r1', suiteId: 'tiny', suiteHash: HASH, controlsDigest: CONTROLS, task: 't',
      agent: { id: 'gold', harness: 'builtin', version: null, model: null, effort: null },
      replay: 0, seed: null, level: null, outcome: { kind: 'solved' }, agentSec: 0, gradeSec: 0, costUsd: null,
      tokensIn: null, tokensOut: null, linesAdded: 0, linesRemoved: 0, points: 1, maxPoints: 1,
      orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: {}, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z',
    } as RunRecord;
    store.saveRun(run, [], [], store.artifactsTempDir('r1'));
    store.saveControls(CONTROLS, { runsPerTask: 2, network: 'none' });
    const controls = { runsPerTask: 2, network: 'none' } as Suite['controls'];
    try {
      expect(() => refuseOtherSuite(store, { id: 'tiny', hash: HASH, controlsDigest: CONTROLS, controls }, os.tmpdir())).not.toThrow();
      const cases: [string, string, string, string][] = [
        ['other', 'e'.repeat(64), CONTROLS, '— another suite.'],
        ['tiny', 'b'.repeat(64), CONTROLS, '— the same suite id, but the suite changed since.'],
        ['tiny', HASH, 'd'.repeat(64), '— the same suite under other controls.'],
      ];
      for (const [id, hash, controlsDigest, why] of cases) {
        expect(() => refuseOtherSuite(store, { id, hash, controlsDigest, controls }, path.dirname(dir))).toThrow(
          `${dir}: holds 1 run(s) of suite tiny (hash aaaaaaaaaaaa, controls cccccccccccc); this bake is suite ${id} (hash ${hash.slice(0, 12)}, controls ${controlsDigest.slice(0, 12)}) ${why} ` +
            `A results folder holds one suite and control set so that it can be ranked: bake into a folder of its own, e.g. --out ${id}-${hash.slice(0, 8)}`,
        );
      }
      // the open web is another control set: named, and said to stand apart
      expect(() => refuseOtherSuite(store, { id: 'tiny', hash: 'b'.repeat(64), controlsDigest: 'd'.repeat(64), controls: { ...controls, network: 'model-api+web' } }, os.tmpdir())).toThrow(
        /the suite changed since; the controls differ in network \("none" vs "model-api\+web"\) \(closed-web and open-web runs are never ranked together\)\./,
      );
    } finally {
      store.close();
    }
  });
});
