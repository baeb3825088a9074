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
  });
});
