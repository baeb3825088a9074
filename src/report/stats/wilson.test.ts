import { describe, expect, it } from 'vitest';
import { wilson } from './wilson.js';

// Reference values of notes/statistics.md are checked in statistics-reference.test.ts.
describe('wilson', () => {
  it('never leaves [0, 1], even at 0/n and n/n', () => {
    expect(wilson(0, 1).low).toBeGreaterThanOrEqual(0);
    expect(wilson(1, 1).high).toBeLessThanOrEqual(1);
  });

  it('narrows when z is smaller', () => {
    const wide = wilson(5, 10);
    const narrow = wilson(5, 10, 1);
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
  });

  it('rejects an empty sample and impossible counts', () => {
    expect(() => wilson(0, 0)).toThrow(RangeError);
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(() => wilson(-1, 2)).toThrow(RangeError);
    expect(() => wilson(Number.NaN, 2)).toThrow(RangeError);
  });

  it('takes fractional successes (tasks each counting their share of solved runs) between the integer cases', () => {
    // one task, one of its two runs solved: the share is 0.5 of one task — as wide as p = 0.5 at n = 1
    const half = wilson(0.5, 1);
    expect(half.low).toBeCloseTo(0.0546, 3);
    expect(half.high).toBeCloseTo(0.9454, 3);
    const lower = wilson(1, 3);
    const between = wilson(1.5, 3);
    const upper = wilson(2, 3);
    expect(between.low).toBeGreaterThan(lower.low);
    expect(between.low).toBeLessThan(upper.low);
  });
});
