import { describe, expect, it } from 'vitest';
import { median } from './median.js';

describe('median', () => {
  it('takes the middle value of an odd count', () => {
    expect(median([9, 1, 5])).toBe(5);
  });

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 10, 2])).toBe(3);
  });

  it('sorts numerically, not as strings', () => {
    expect(median([10, 9, 100])).toBe(10);
  });

  it('returns null for no data', () => {
    expect(median([])).toBeNull();
  });

  it('does not reorder its input', () => {
    const xs = [3, 1, 2];
    median(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});
