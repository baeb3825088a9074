import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../types.js';
import { compareVerdicts, type Regrade } from './compare-verdicts.js';

function stored(outcome: Outcome, orders: { order: number; points: number; maxPoints: number }[]): RunRecord {
  return {
    id: 'r1', suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't',
    agent: { id: 'a', harness: 'builtin', version: null, model: null, effort: null },
    replay: 0, seed: null, level: null, outcome, agentSec: 1, gradeSec: 1, costUsd: null, tokensIn: null, tokensOut: null,
    linesAdded: 0, linesRemoved: 0,
    points: orders.reduce((a, o) => a + o.points, 0), maxPoints: orders.reduce((a, o) => a + o.maxPoints, 0),
    orders, runtime: {}, startedAt: '', finishedAt: '',
  };
}

const failed = (reason: 'tests-failed' | 'session-timeout' | 'memory-limit', detail = 'x'): Outcome => ({ kind: 'failed', reason, detail });

describe('compareVerdicts', () => {
  it('agrees when outcome kind, reason and points match, whatever the details say', () => {
    const run = stored(failed('tests-failed', 'took 1.2 s'), [{ order: 1, points: 1, maxPoints: 3 }]);
    const regrade: Regrade = { outcome: failed('tests-failed', 'took 3.4 s'), orders: [{ order: 1, points: 1, maxPoints: 3 }] };
    expect(compareVerdicts(run, regrade)).toEqual([]);
  });

  it('reads a test timeout stored before bakeoff named it (tests-failed, "the test command timed out") as test-timeout', () => {
    const run = stored({ kind: 'failed', reason: 'tests-failed', detail: 'order 1: the test command timed out' }, [{ order: 1, points: 0, maxPoints: 3 }]);
    const regrade: Regrade = { outcome: { kind: 'failed', reason: 'test-timeout', detail: 'order 1: the test command timed out after 300 s' }, orders: [{ order: 1, points: 0, maxPoints: 3 }] };
    expect(compareVerdicts(run, regrade)).toEqual([]);
    const other = stored({ kind: 'failed', reason: 'tests-failed', detail: 'order 1: t1 (fail)' }, [{ order: 1, points: 0, maxPoints: 3 }]);
    expect(compareVerdicts(other, regrade)).toHaveLength(1);
  });

  it('flags a stored solved that re-grades as failed, even with equal points', () => {
    const run = stored({ kind: 'solved' }, [{ order: 1, points: 1, maxPoints: 3 }]);
    const regrade: Regrade = { outcome: failed('tests-failed'), orders: [{ order: 1, points: 1, maxPoints: 3 }] };
    expect(compareVerdicts(run, regrade)).toEqual([{ kind: 'outcome', stored: { kind: 'solved' }, regraded: failed('tests-failed') }]);
  });

  it('flags another fail reason', () => {
    const run = stored(failed('tests-failed'), [{ order: 1, points: 0, maxPoints: 3 }]);
    const regrade: Regrade = { outcome: { kind: 'failed', reason: 'protected-path-changed' }, orders: [{ order: 1, points: 0, maxPoints: 3 }] };
    expect(compareVerdicts(run, regrade).map((m) => m.kind)).toEqual(['outcome']);
  });

  it('flags points per order and in total, and an order only one side graded', () => {
    const run = stored({ kind: 'solved' }, [{ order: 1, points: 3, maxPoints: 3 }, { order: 2, points: 2, maxPoints: 2 }]);
    const regrade: Regrade = { outcome: { kind: 'solved' }, orders: [{ order: 1, points: 2, maxPoints: 3 }] };
    expect(compareVerdicts(run, regrade)).toEqual([
      { kind: 'points', order: 1, stored: { order: 1, points: 3, maxPoints: 3 }, regraded: { order: 1, points: 2, maxPoints: 3 } },
      { kind: 'points', order: 2, stored: { order: 2, points: 2, maxPoints: 2 }, regraded: null },
      { kind: 'points', order: null, stored: { order: 0, points: 5, maxPoints: 5 }, regraded: { order: 0, points: 2, maxPoints: 3 } },
    ]);
  });

  it('flags a stored total that disagrees with the stored orders', () => {
    const run = { ...stored(failed('tests-failed'), [{ order: 1, points: 1, maxPoints: 3 }]), points: 3 };
    const regrade: Regrade = { outcome: failed('tests-failed'), orders: [{ order: 1, points: 1, maxPoints: 3 }] };
    expect(compareVerdicts(run, regrade)).toEqual([
      { kind: 'points', order: null, stored: { order: 0, points: 3, maxPoints: 3 }, regraded: { order: 0, points: 1, maxPoints: 3 } },
    ]);
  });

  it('compares a failure that came from the agent session on points only', () => {
    for (const reason of ['session-timeout', 'memory-limit'] as const) {
      const run = stored(failed(reason), [{ order: 1, points: 3, maxPoints: 3 }]);
      expect(compareVerdicts(run, { outcome: { kind: 'solved' }, orders: [{ order: 1, points: 3, maxPoints: 3 }] })).toEqual([]);
      expect(compareVerdicts(run, { outcome: { kind: 'solved' }, orders: [{ order: 1, points: 2, maxPoints: 3 }] }).map((m) => m.kind)).toEqual(['points', 'points']);
    }
  });
});
