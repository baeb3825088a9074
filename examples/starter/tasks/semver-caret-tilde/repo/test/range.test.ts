import { describe, expect, it } from 'vitest';
import { InvalidRangeError, maxSatisfying, satisfies } from '../src/index.ts';

describe('satisfies', () => {
  it.each([
    ['1.2.3', '1.2.3', true],
    ['1.2.4', '=1.2.3', false],
    ['1.2.4', '>1.2.3', true],
    ['1.2.3', '>=1.2.3', true],
    ['1.2.2', '>=1.2.3', false],
    ['1.9.9', '<2.0.0', true],
    ['2.0.0', '<=2.0.0', true],
    ['1.5.0', '>=1.2.0 <2.0.0', true],
    ['2.0.0', '>=1.2.0 <2.0.0', false],
    ['1.5.0', '>= 1.2.0 < 2.0.0', true],
    ['0.9.0', '<1.0.0 || >=3.0.0', true],
    ['3.1.0', '<1.0.0 || >=3.0.0', true],
    ['2.1.0', '<1.0.0 || >=3.0.0', false],
  ] as const)('%s in %j → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('treats *, x and the empty range as any release', () => {
    for (const range of ['*', 'x', '', '   ']) {
      expect(satisfies('0.0.1', range)).toBe(true);
      expect(satisfies('42.1.7', range)).toBe(true);
    }
  });

  it.each([
    ['1.7.3', '1.x', true],
    ['2.0.0', '1.x', false],
    ['1.2.9', '1.2', true],
    ['1.3.0', '1.2.x', false],
    ['1.0.0', '1', true],
    ['1.2.0', '>=1.2', true],
    ['1.1.9', '>=1.2', false],
    ['1.3.0', '>1.2', true],
    ['1.2.9', '>1.2', false],
    ['1.2.9', '<=1.2', true],
    ['1.3.0', '<=1.2', false],
  ] as const)('X-range: %s in %j → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('only lets pre-releases in through a comparator of the same release', () => {
    expect(satisfies('1.3.0-beta.2', '>=1.2.0')).toBe(false);
    expect(satisfies('1.3.0-beta.2', '>=1.3.0-beta.1')).toBe(true);
    expect(satisfies('1.3.0-beta.2', '>=1.3.0-beta.1 <1.4.0')).toBe(true);
    expect(satisfies('1.4.0-beta.1', '>=1.3.0-beta.1')).toBe(false);
  });

  it.each(['>=1.2.3 <', 'foo', '1.2.3 - 2.0.0', '>*', '1.x-beta'])('rejects %j', (range) => {
    expect(() => satisfies('1.0.0', range)).toThrow(InvalidRangeError);
  });
});

describe('maxSatisfying', () => {
  const published = ['1.0.0', '1.2.0', '1.2.5', '1.10.1', '2.0.0-rc.1', '2.0.0', '2.3.4'];

  it('picks the highest matching version', () => {
    expect(maxSatisfying(published, '>=1.2.0 <2.0.0')).toBe('1.10.1');
    expect(maxSatisfying(published, '1.2.x || 2.0.0')).toBe('2.0.0');
    expect(maxSatisfying(published, '*')).toBe('2.3.4');
  });

  it('returns undefined when nothing matches', () => {
    expect(maxSatisfying(published, '>=3.0.0')).toBeUndefined();
  });
});
