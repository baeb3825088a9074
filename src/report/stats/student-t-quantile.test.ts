import { describe, expect, it } from 'vitest';
import { studentTCdf, studentTQuantile } from './student-t-quantile.js';

describe('studentTQuantile', () => {
  // Reference values (notes/statistics.md and the brief) are in statistics-reference.test.ts.
  // Closed forms: df = 1 is Cauchy, t = tan(π(p − ½)); df = 2 gives t = (2p − 1)/sqrt(2p(1 − p)).
  it('matches the closed forms for one and two degrees of freedom', () => {
    for (const p of [0.6, 0.9, 0.995]) {
      expect(studentTQuantile(p, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 9);
      expect(studentTQuantile(p, 2)).toBeCloseTo((2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 9);
    }
  });

  it('approaches the normal quantile for many degrees of freedom', () => {
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959963984540054, 6);
  });

  it('is antisymmetric around the median', () => {
    expect(studentTQuantile(0.5, 4)).toBe(0);
    expect(studentTQuantile(0.025, 5)).toBeCloseTo(-studentTQuantile(0.975, 5), 12);
  });

  it('inverts the CDF', () => {
    for (const df of [1, 3, 7.5, 40]) {
      expect(studentTCdf(studentTQuantile(0.9, df), df)).toBeCloseTo(0.9, 12);
    }
  });

  it('rejects probabilities outside (0, 1) and non-positive degrees of freedom', () => {
    expect(() => studentTQuantile(1, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0.975, 0)).toThrow(RangeError);
  });
});
