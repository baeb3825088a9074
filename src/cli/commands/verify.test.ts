import { describe, expect, it } from 'vitest';
import type { RunVerification, VerifyResult } from '../../verify/verify-results.js';
import { renderVerify } from './verify.js';

const base: RunVerification = {
  id: 'r1', task: 'add', agent: 'gold', replay: 0, stored: { kind: 'solved' }, basis: 'outcome-and-points',
  regraded: { outcome: { kind: 'solved' }, orders: [{ order: 1, points: 3, maxPoints: 3 }] },
  checksumsRecorded: true, artifacts: [], verdict: [], error: null, durationMs: 1,
};
const result = (runs: RunVerification[], mismatches: number, unverified = 0, selection: VerifyResult['selection'] = null): VerifyResult => ({
  results: '/r', suite: { id: 's', hash: 'h', dir: '/s' }, runs, mismatches, unverified, durationMs: 1, selection,
});

describe('renderVerify', () => {
  it('prints only the summary when every run matches', () => {
    const voidRun: RunVerification = { ...base, id: 'r2', stored: { kind: 'void', reason: 'infra-error' }, basis: 'checksums', regraded: null };
    const timedOut: RunVerification = { ...base, id: 'r3', stored: { kind: 'failed', reason: 'session-timeout' }, basis: 'points' };
    expect(renderVerify(result([base, voidRun, timedOut], 0))).toBe('verified 3 runs: 0 mismatches (1 re-graded, 1 on points only, 1 void: checksums only)\n');
  });

  it('puts every problem of a run on its line: verdict, points, artifacts, and why it was not re-graded', () => {
    const bad: RunVerification = {
      ...base,
      verdict: [
        { kind: 'outcome', stored: { kind: 'solved' }, regraded: { kind: 'failed', reason: 'tests-failed', detail: 'order 1:\n  a (fail)' } },
        { kind: 'points', order: 1, stored: { order: 1, points: 3, maxPoints: 3 }, regraded: { order: 1, points: 1, maxPoints: 3 } },
        { kind: 'points', order: 2, stored: { order: 2, points: 2, maxPoints: 2 }, regraded: null },
      ],
      artifacts: [{ path: 'order-1/change.patch', change: 'changed' }],
    };
    const broken: RunVerification = { ...base, id: 'r2', agent: 'noop', regraded: null, error: 'setup failed: exit 1' };
    expect(renderVerify(result([bad, broken], 1, 1)).split('\n')).toEqual([
      'run r1 (add, gold): stored solved, re-graded failed (tests-failed: order 1: a (fail)); order 1: stored 3/3 points, re-graded 1/3; ' +
        'order 2: stored 2/2 points, re-graded none; artifact order-1/change.patch changed',
      'run r2 (add, noop): not re-graded: setup failed: exit 1',
      'verified 2 runs: 1 mismatch (1 re-graded, 0 on points only, 0 void: checksums only, 1 not re-graded)',
      '',
    ]);
  });

  it('says how many of the stored runs a partial re-check covered, and which were asked for', () => {
    const selection = { tasks: ['add'], agents: ['gold', 'pi:\x1b[31mred'], storedRuns: 12 };
    expect(renderVerify(result([base], 0, 0, selection))).toBe('verified 1 of 12 runs (--task add --agent gold --agent pi:\\x1b[31mred): 0 mismatches (1 re-graded, 0 on points only, 0 void: checksums only)\n');
  });
});
