import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../store/index.js';
import type { RunRecord } from '../types.js';
import { report } from './report.js';

const CLOSED = 'c'.repeat(64);
const OPEN = 'd'.repeat(64);

/** One solved run of `agent` on task `t` under the control set `controlsDigest`. */
function runOf(id: string, agent: string, controlsDigest: string): RunRecord {
  return {
    id, suiteId: 'tiny', suiteHash: 'a'.repeat(64), controlsDigest, task: 't',
    agent: { id: agent, harness: 'builtin', version: null, model: null, effort: null },
    replay: 0, seed: null, level: null, outcome: { kind: 'solved' }, agentSec: 1, gradeSec: 1, costUsd: null,
    tokensIn: null, tokensOut: null, linesAdded: 0, linesRemoved: 0, points: 1, maxPoints: 1,
    orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: {}, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:01Z',
  } as RunRecord;
}

describe('report of closed-web and open-web runs (decision 013)', () => {
  it('refuses to rank them together, and --compare refuses to compare them, naming the network', async () => {
    // `run` refuses to mix them in one folder; a folder that holds both anyway (written by hand, an older bakeoff) is refused too
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-open-web-report-'));
    const store = openStore(dir, { create: true });
    try {
      store.saveControls(CLOSED, { runsPerTask: 1, network: 'none' });
      store.saveControls(OPEN, { runsPerTask: 1, network: 'model-api+web' });
      for (const run of [runOf('r1', 'closed', CLOSED), runOf('r2', 'open', OPEN)]) store.saveRun(run, [], [], store.artifactsTempDir(run.id));
    } finally {
      store.close();
    }
    const network = /the controls differ in network \("none" vs "model-api\+web"\) — closed-web and open-web runs are never ranked or compared together/;
    await expect(report({ results: dir })).rejects.toThrow(network);
    await expect(report({ results: dir, compare: ['closed', 'open'] })).rejects.toThrow(/--compare: refusing to compare closed and open: their runs differ in controlsDigest/);
    await expect(report({ results: dir, compare: ['closed', 'open'] })).rejects.toThrow(network);
  });
});
