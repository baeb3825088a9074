import { describe, expect, it } from 'vitest';
import { InvalidRangeError, maxSatisfying, satisfies } from '../src/index.ts';

describe('caret ranges', () => {
  it.each([
    ['1.2.3', '^1.2.3', true],
    ['1.9.0', '^1.2.3', true],
    ['1.2.2', '^1.2.3', false],
    ['2.0.0', '^1.2.3', false],
    ['0.2.9', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.2.2', '^0.2.3', false],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
  ] as const)('%s in %j → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it.each([
    ['1.2.0', '^1.2', true],
    ['1.99.0', '^1.2.x', true],
    ['1.1.9', '^1.2', false],
    ['2.0.0', '^1.2.x', false],
    ['1.0.0', '^1', true],
    ['1.8.3', '^1.x', true],
    ['2.0.0', '^1', false],
    ['0.0.9', '^0.0', true],
    ['0.1.0', '^0.0.x', false],
    ['0.9.9', '^0.x', true],
    ['1.0.0', '^0.x', false],
  ] as const)('partial: %s in %j → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('keeps the pre-release rule', () => {
    expect(satisfies('1.2.3-beta.4', '^1.2.3-beta.2')).toBe(true);
    expect(satisfies('1.2.3-beta.1', '^1.2.3-beta.2')).toBe(false);
    expect(satisfies('1.5.0', '^1.2.3-beta.2')).toBe(true);
    expect(satisfies('1.2.4-beta.1', '^1.2.3-beta.2')).toBe(false);
    expect(satisfies('2.0.0-rc.1', '^1.2.3')).toBe(false);
  });
});

describe('tilde ranges', () => {
  it.each([
    ['1.2.3', '~1.2.3', true],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.2.2', '~1.2.3', false],
    ['1.2.0', '~1.2', true],
    ['1.3.0', '~1.2', false],
    ['1.9.9', '~1', true],
    ['2.0.0', '~1', false],
    ['0.2.5', '~0.2.3', true],
    ['0.3.0', '~0.2.3', false],
  ] as const)('%s in %j → %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('keeps the pre-release rule', () => {
    expect(satisfies('1.2.3-beta.3', '~1.2.3-beta.2')).toBe(true);
    expect(satisfies('1.2.4', '~1.2.3-beta.2')).toBe(true);
    expect(satisfies('1.2.4-alpha', '~1.2.3-beta.2')).toBe(false);
  });
});

describe('combinations', () => {
  it('combines with other comparators and ||', () => {
    expect(satisfies('1.4.0', '^1.2.0 <1.5.0')).toBe(true);
    expect(satisfies('1.5.0', '^1.2.0 <1.5.0')).toBe(false);
    expect(satisfies('2.3.0', '~1.2.0 || ^2.0.0')).toBe(true);
    expect(satisfies('1.3.0', '~1.2.0 || ^2.0.0')).toBe(false);
  });

  it('works with maxSatisfying', () => {
    const published = ['0.9.0', '1.2.0', '1.2.7', '1.3.1', '1.10.0', '2.0.0-rc.1', '2.0.0'];
    expect(maxSatisfying(published, '^1.2.0')).toBe('1.10.0');
    expect(maxSatisfying(published, '~1.2.0')).toBe('1.2.7');
    expect(maxSatisfying(published, '^0.9.1')).toBeUndefined();
  });
});

describe('still invalid', () => {
  it.each(['^', '~', '^>=1.2.3', '~1.2.3.4', '^1.2-beta'])('rejects %j', (range) => {
    expect(() => satisfies('1.0.0', range)).toThrow(InvalidRangeError);
  });
});
