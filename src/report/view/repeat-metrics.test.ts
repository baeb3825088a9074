import { describe, expect, it } from 'vitest';
import { repeatMetrics } from './repeat-metrics.js';

// Each task's valid runs as 0/1 scores, as summarizeAgent passes them (void runs already left out).
const score = (outcomes: boolean[]) => outcomes.map((solved) => (solved ? 1 : 0));

/** Independent check: every k-subset of the runs, counted. */
function bruteForce(outcomes: boolean[], k: number): { any: number; all: number } {
  let subsets = 0;
  let any = 0;
  let all = 0;
  const pick = (start: number, chosen: boolean[]): void => {
    if (chosen.length === k) {
      subsets += 1;
      if (chosen.some(Boolean)) any += 1;
      if (chosen.every(Boolean)) all += 1;
      return;
    }
    for (let i = start; i < outcomes.length; i++) pick(i + 1, [...chosen, outcomes[i]!]);
  };
  pick(0, []);
  return { any: any / subsets, all: all / subsets };
}

describe('repeatMetrics', () => {
  it('matches the reference values of notes/statistics.md (n = 5, c = 2)', () => {
    const [k1, k2] = repeatMetrics([[1, 1, 0, 0, 0]], 2);
    expect(k1!.passAtK).toBeCloseTo(0.4, 10);
    expect(k2!.passAtK).toBeCloseTo(0.7, 10);
    expect(k2!.passHatK).toBeCloseTo(0.1, 10);
  });

  it('averages over tasks as enumerating every k-subset of each task does', () => {
    const a = [true, false, true, true, false, false];
    const b = [false, false, true, false];
    const metrics = repeatMetrics([score(a), score(b), score([true])], 6);
    expect(metrics.map((m) => [m.k, m.tasks])).toEqual([[1, 3], [2, 2], [3, 2], [4, 2], [5, 1], [6, 1]]);
    for (const m of metrics) {
      const tasks = [a, b, [true]].filter((outcomes) => outcomes.length >= m.k).map((outcomes) => bruteForce(outcomes, m.k));
      expect(m.passAtK).toBeCloseTo(tasks.reduce((s, t) => s + t.any, 0) / tasks.length, 12);
      expect(m.passHatK).toBeCloseTo(tasks.reduce((s, t) => s + t.all, 0) / tasks.length, 12);
    }
  });

  it('stops at the largest k some task has valid runs for, and is empty with none', () => {
    expect(repeatMetrics([[1]], 3).map((m) => m.k)).toEqual([1]);
    expect(repeatMetrics([], 3)).toEqual([]);
  });
});
