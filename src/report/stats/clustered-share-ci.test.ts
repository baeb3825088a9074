import { describe, expect, it } from 'vitest';
import { clusteredShareCi } from './clustered-share-ci.js';
import { Z_95 } from './interval.js';

// Reference values of notes/statistics.md are checked in statistics-reference.test.ts.
describe('clusteredShareCi', () => {
  const example = [[1, 1], [1, 0], [0, 0], [1, 1], [0, 1]];

  it('builds the interval from the small-sample corrected SE', () => {
    const { share, se, ci95 } = clusteredShareCi(example);
    expect(ci95.low).toBeCloseTo(share - Z_95 * se, 12);
    expect(ci95.high).toBeCloseTo(share + Z_95 * se, 12);
  });

  it('clamps the interval to [0, 1]', () => {
    const { ci95 } = clusteredShareCi([[1, 1], [1, 1], [1, 0]]);
    expect(ci95.high).toBe(1);
    expect(ci95.low).toBeGreaterThan(0);
  });

  it('ignores tasks without runs', () => {
    expect(clusteredShareCi([...example, []])).toEqual(clusteredShareCi(example));
  });

  it('returns the whole of [0, 1] when there is only one task', () => {
    const result = clusteredShareCi([[1, 0, 1]]);
    expect(result.se).toBeNaN();
    expect(result.ci95).toEqual({ low: 0, high: 1 });
  });

  it('rejects input without runs', () => {
    expect(() => clusteredShareCi([[], []])).toThrow(RangeError);
  });
});
