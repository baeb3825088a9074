import { describe, expect, it } from 'vitest';
import { differingFields } from './differing-fields.js';

describe('differingFields', () => {
  it('names each field two control sets disagree on, with both values', () => {
    expect(differingFields({ runsPerTask: 2, network: 'none', seeds: [1] }, { runsPerTask: 2, network: 'model-api+web', seeds: [1] })).toEqual(['network ("none" vs "model-api+web")']);
    expect(differingFields({ a: 1 }, { b: { c: 2 } })).toEqual(['a (1 vs (none))', 'b ((none) vs {"c":2})']);
    expect(differingFields({ a: [1, 2] }, { a: [1, 2] })).toEqual([]);
    expect(differingFields(null, undefined)).toEqual([]);
  });
});
