import { describe, expect, it } from 'vitest';
import type { Leaf } from './tripwire-cases.js';
import { content, drawVariants, editDistance, hasUniqueCentre, isVariable, valueKey, type VariantContext } from './tripwire-variants.js';

let at = 0;
/** A leaf as a file would hold it (each at its own offset). */
function leaf(raw: string, kind: Leaf['kind'] = raw.startsWith("'") || raw.startsWith('"') ? 'string' : 'number'): Leaf {
  at += 100;
  const open = kind === 'string' ? 1 : 0;
  return { span: { start: at, end: at + raw.length }, kind, raw, open, close: open };
}

/** The leaf's test spans the leaf alone; `literals` are the file's (the leaf among them). */
function within(real: Leaf, literals: readonly Leaf[], text = ''): VariantContext {
  return { literals, expected: literals, text, test: real.span };
}

describe('drawVariants', () => {
  it('changes one character position of a value the file writes nowhere else: k other values, pairwise one apart, no centre', () => {
    for (let i = 0; i < 200; i++) {
      const real = leaf("'EUR 0.13'");
      const { raws, how } = drawVariants(real, within(real, [real, leaf("'other'")]), 4);
      expect(how).toBe('position');
      expect(raws).toHaveLength(4);
      const all = [real.raw, ...raws];
      expect(new Set(all.map((r) => valueKey({ ...real, raw: r }))).size).toBe(5);
      // a digit when the value has one, so every two values differ in that one digit
      for (const a of all) for (const b of all) if (a !== b) expect(editDistance(a, b)).toBe(1);
      expect(raws.every((r) => /^'EUR \d\.\d\d'$/.test(r))).toBe(true);
      expect(hasUniqueCentre(all)).toBe(false);
    }
  });

  it('draws from values the file writes elsewhere when the real one is written elsewhere too, so being written twice tells nothing', () => {
    const pool = ["'1 MiB'", "'1 MiB'", "'1 GiB'", "'1 TiB'", "'1023 KiB'", "'1 MB'", '"dq"'].map((r) => leaf(r));
    const real = pool[0]!;
    for (let i = 0; i < 100; i++) {
      const { raws, how } = drawVariants(real, within(real, pool), 3);
      expect(how).toBe('pool');
      expect(raws.length).toBeGreaterThan(0);
      // same quotes only, never the real value, never twice
      expect(raws.every((r) => r.startsWith("'") && r !== "'1 MiB'")).toBe(true);
      expect(new Set(raws).size).toBe(raws.length);
      expect(hasUniqueCentre([real.raw, ...raws].map((r) => content({ ...real, raw: r })))).toBe(false);
    }
  });

  it("draws other answers from the file's expected values only, never from its titles or import paths", () => {
    const real = leaf("'hello-world'");
    const twice = leaf("'hello-world'");
    const expected = [real, twice, leaf("'hello'")];
    const titles = [leaf("'become one dash'"), leaf("'node:assert/strict'")];
    for (let i = 0; i < 50; i++) expect(drawVariants(real, { literals: [...expected, ...titles], expected, text: '', test: real.span }, 4).raws).toEqual(["'hello'"]);
  });

  it('keeps numbers numbers of the same form, never with a new leading zero, and distinct in value', () => {
    for (let i = 0; i < 200; i++) {
      const real = leaf('12');
      const { raws } = drawVariants(real, within(real, [real]), 8);
      expect(raws.length).toBe(8);
      expect(raws.every((r) => /^[1-9][0-9]$/.test(r) && r !== '12')).toBe(true);
      expect(new Set(raws.map(Number)).size).toBe(8);
    }
    const float = leaf('2.5f64');
    expect(drawVariants(float, within(float, [float]), 3).raws.every((r) => /^\d\.\df64$/.test(r))).toBe(true);
  });

  it('gives a boolean the other boolean, in the language’s spelling', () => {
    expect(drawVariants(leaf('True', 'boolean'), within(leaf('x'), []), 4).raws).toEqual(['False']);
    expect(drawVariants(leaf('false', 'boolean'), within(leaf('x'), []), 4).raws).toEqual(['true']);
  });

  it('varies no value the test writes again in its own code: every copy would write it once more', () => {
    const real = leaf("'0'");
    const input = leaf("'0'");
    const test = { start: real.span.start - 50, end: input.span.end };
    expect(drawVariants(real, { literals: [real, input], expected: [real], text: '', test }, 3).raws).toEqual([]);
  });

  it('varies no string with escapes or without a letter or digit', () => {
    expect(isVariable(leaf("'a\\nb'"))).toBe(false);
    expect(isVariable(leaf("'—'"))).toBe(false);
    expect(isVariable(leaf("'é a'"))).toBe(true);
  });
});
