import { describe, expect, it } from 'vitest';
import { exactMcNemar } from './exact-mcnemar.js';

// Reference values of notes/statistics.md are checked in statistics-reference.test.ts.
describe('exactMcNemar', () => {
  it('gives p = 1 without discordant tasks', () => {
    expect(exactMcNemar(0, 0)).toBe(1);
  });

  it('is symmetric in b and c', () => {
    expect(exactMcNemar(3, 12)).toBe(exactMcNemar(12, 3));
  });

  it('caps the p-value at 1 when b equals c', () => {
    expect(exactMcNemar(4, 4)).toBe(1);
  });

  it('does not underflow for thousands of discordant tasks', () => {
    const p = exactMcNemar(1100, 1000);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.05);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => exactMcNemar(-1, 2)).toThrow(RangeError);
    expect(() => exactMcNemar(1.5, 2)).toThrow(RangeError);
  });
});
