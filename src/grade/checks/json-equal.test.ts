import { describe, expect, it } from 'vitest';
import { jsonEqual } from './judge-outcome.js';

describe('jsonEqual', () => {
  it('treats objects with the same entries in another key order as equal', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2], d: null } }, { b: { d: null, c: [1, 2] }, a: 1 })).toBe(true);
  });

  it('tells apart values that differ anywhere, including array order and extra keys', () => {
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(undefined, null)).toBe(false);
  });

  it('compares values nested far deeper than the host stack', () => {
    const depth = 200_000;
    const deep = () => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
    expect(jsonEqual(deep(), deep())).toBe(true);
  });
});
