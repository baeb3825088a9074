import { describe, expect, it } from 'vitest';
import { passAtK, passHatK } from './pass-at-k.js';

// Reference values of notes/statistics.md are checked in statistics-reference.test.ts.
describe('passAtK and passHatK', () => {
  it('agree with the share solved for k = 1', () => {
    expect(passAtK(7, 3, 1)).toBeCloseTo(3 / 7, 12);
    expect(passHatK(7, 3, 1)).toBeCloseTo(3 / 7, 12);
  });

  it('reach certainty when too few runs failed or solved to fill k', () => {
    expect(passAtK(5, 4, 2)).toBe(1);
    expect(passHatK(5, 1, 2)).toBe(0);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passHatK(5, 5, 5)).toBe(1);
  });

  it('reject k outside [1, n] and c outside [0, n]', () => {
    expect(() => passAtK(5, 2, 0)).toThrow(RangeError);
    expect(() => passAtK(5, 2, 6)).toThrow(RangeError);
    expect(() => passHatK(5, 6, 1)).toThrow(RangeError);
  });
});
