import { describe, expect, it } from 'vitest';
import { pairedDifference } from './paired-difference.js';

// Reference values of notes/statistics.md are checked in statistics-reference.test.ts.
describe('pairedDifference', () => {
  const a = [[1, 1], [1, 0], [0, 0], [1, 1], [0, 1], [1, 1]];
  const b = [[1, 0], [0, 0], [0, 0], [1, 1], [0, 0], [0, 1]];

  it('changes sign when the agents swap places', () => {
    const forward = pairedDifference(a, b);
    const backward = pairedDifference(b, a);
    expect(backward.mean).toBeCloseTo(-forward.mean, 12);
    expect(backward.ci95.low).toBeCloseTo(-forward.ci95.high, 12);
  });

  it('allows a different number of runs on each side of a task', () => {
    expect(pairedDifference([[1], [1, 1, 0]], [[0, 0], [1]]).byTask[1]).toBeCloseTo(-1 / 3, 12);
  });

  it('rejects mismatched tasks, empty tasks and fewer than two tasks', () => {
    expect(() => pairedDifference(a, b.slice(1))).toThrow(RangeError);
    expect(() => pairedDifference([[1], []], [[1], [0]])).toThrow(RangeError);
    expect(() => pairedDifference([[1]], [[0]])).toThrow(RangeError);
  });
});
