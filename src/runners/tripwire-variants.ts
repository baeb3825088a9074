import type { Leaf } from './tripwire-cases.js';
import { cryptoRandom, shuffle, type Random } from './tripwire-names.js';

/*
 * The other answers a tripwire group's copies expect (grade/tripwire-groups.ts): for one literal
 * leaf of a test's expected side, `k` other values, all different from it and from each other
 * under the comparison the assertion makes, and drawn so that nothing in their form singles out
 * the real one. Every member of a group repeats the test's whole code, so a value that the test
 * writes again elsewhere in its own code (an input, another expected value) would be written k+1
 * times more than any other: such a leaf is not varied. Then:
 *   - a value the file writes elsewhere (outside the test) gets other answers the file's tests
 *     expect and this test does not write (same kind, same quotes), written as often as it is
 *     (else once more or less; else the leaf is not varied);
 *   - a value the file writes nowhere else gets values it writes nowhere: one character position
 *     of it (a digit when it has one, else a letter) takes k other characters of the same class,
 *     those the file's text uses about as often as the real one, so that every two of the k+1
 *     values differ in that one place, none is their centre and none is the more common letter;
 *   - a boolean gets the other boolean.
 * A draw in which one value is the unique centre of the others (least total edit distance) is
 * drawn again, whichever value that is.
 */

export interface LeafVariants {
  /** The k other literals, as they are to be written. */
  readonly raws: readonly string[];
  /** How they were drawn: from the file's other values, or by changing one character. */
  readonly how: 'pool' | 'position' | 'boolean';
}

/** What the values are drawn against: the file's literals and text, and the test the leaf is in. */
export interface VariantContext {
  /** Every literal of the file (`TestFileCases.literals`): what is counted. */
  readonly literals: readonly Leaf[];
  /** The file's expected values (`TestFileCases.expectedLeaves`): what other answers are drawn from. */
  readonly expected: readonly Leaf[];
  /** The file's text. */
  readonly text: string;
  /** The test's whole definition: what every copy repeats. */
  readonly test: { readonly start: number; readonly end: number };
  /**
   * How many times the graded file will write a literal of `literals` (default 1): k+1 for one
   * in another test made a group, whose every member repeats it. Counted so, a value is "written
   * as often" in the file the tests run from, not in the file before the groups: else a value
   * that other grouped tests write (a shared input, a header row) would be written most often,
   * and be the real one.
   */
  readonly written?: (literal: Leaf) => number;
}

/** Whether a leaf can be varied at all (a string with escapes, or with no letter or digit, cannot). */
export function isVariable(leaf: Leaf): boolean {
  if (leaf.kind === 'boolean') return true;
  const body = content(leaf);
  return !body.includes('\\') && /[A-Za-z0-9]/.test(body);
}

/** `k` other literals for `leaf` (fewer when the file has fewer to offer; none when it has none, or the test writes the value twice). */
export function drawVariants(leaf: Leaf, context: VariantContext, k: number, random: Random = cryptoRandom): LeafVariants {
  if (leaf.kind === 'boolean') return { raws: [flipBoolean(leaf.raw)], how: 'boolean' };
  const key = valueKey(leaf);
  const inside = (l: Leaf): boolean => l.span.start >= context.test.start && l.span.end <= context.test.end;
  const inTest = new Set(context.literals.filter((l) => inside(l) && l.span.start !== leaf.span.start).map(valueKey));
  const how = context.literals.some((l) => !inside(l) && valueKey(l) === key) ? 'pool' : 'position';
  if (inTest.has(key)) return { raws: [], how };
  const others = context.literals.filter((l) => !inside(l));
  const count = new Map<string, number>();
  for (const l of others) if (l.kind === leaf.kind) count.set(valueKey(l), (count.get(valueKey(l)) ?? 0) + (context.written?.(l) ?? 1));
  const written = count.get(key) ?? 0;
  const taken = new Set([...count.keys(), ...inTest]);
  // fewer values when no draw of k is free of a centre (two values never have one)
  for (let size = k; size >= 1; size--) {
    for (let attempt = 0; attempt < 6; attempt++) {
      const raws = how === 'pool' ? fromPool(leaf, context.expected.filter((l) => !inside(l)), { count, written, inTest }, size, random) : byPosition(leaf, size, random, { taken, text: context.text });
      if (raws.length === 0) return { raws, how };
      if (!hasUniqueCentre([leaf.raw, ...raws].map((r) => content({ ...leaf, raw: r })))) return { raws, how };
    }
  }
  return { raws: [], how };
}

/** Other values the file writes outside the test (same kind, same quoting, not in the test), closest in how often first. */
function fromPool(leaf: Leaf, others: readonly Leaf[], stats: { count: ReadonlyMap<string, number>; written: number; inTest: ReadonlySet<string> }, k: number, random: Random): string[] {
  const key = valueKey(leaf);
  const byValue = new Map<string, string>();
  for (const l of others) {
    if (l.kind !== leaf.kind || !isVariable(l) || valueKey(l) === key || stats.inTest.has(valueKey(l))) continue;
    if (leaf.kind === 'string' && (l.raw.slice(0, l.open) !== leaf.raw.slice(0, leaf.open) || l.raw.slice(l.raw.length - l.close) !== leaf.raw.slice(leaf.raw.length - leaf.close))) continue;
    if (leaf.kind === 'number' && numberShape(l.raw) !== numberShape(leaf.raw)) continue;
    byValue.set(valueKey(l), l.raw);
  }
  // written as often as the real one (or one time more or less when none is): a value written more
  // often than all the others would be the real one
  const apart = (v: string): number => Math.abs((stats.count.get(v) ?? 0) - stats.written);
  const values = shuffle([...byValue.keys()], random);
  const same = values.filter((v) => apart(v) === 0);
  const chosen = same.length > 0 ? same : values.filter((v) => apart(v) === 1);
  return chosen.slice(0, k).map((v) => byValue.get(v)!);
}

const CLASSES = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/** k values differing from the leaf, and from each other, in one character position. */
function byPosition(leaf: Leaf, k: number, random: Random, context: { taken: ReadonlySet<string>; text: string }): string[] {
  const body = content(leaf);
  const digits = [...body].flatMap((c, i) => (/[0-9]/.test(c) && !inExponent(leaf, body, i) ? [i] : []));
  const letters = leaf.kind === 'string' ? [...body].flatMap((c, i) => (/[A-Za-z]/.test(c) ? [i] : [])) : [];
  const positions = digits.length > 0 ? digits : letters;
  if (positions.length === 0) return [];
  const at = positions[random(positions.length)]!;
  const current = body[at]!;
  let alphabet = CLASSES.find((c) => c.includes(current))!;
  // no new leading zero in a number of several digits (a syntax error in Python, octal-ish in JavaScript)
  if (leaf.kind === 'number' && at === 0 && /^[0-9]{2}/.test(body)) alphabet = alphabet.slice(1);
  // the characters the file uses about as often as the real one first: a rare letter would point at the copies
  const uses = characterCounts(context.text);
  const apart = (c: string): number => Math.abs((uses.get(c) ?? 0) - (uses.get(current) ?? 0));
  const choices = shuffle([...alphabet].filter((c) => c !== current), random).sort((a, b) => apart(a) - apart(b));
  const out: string[] = [];
  const seen = new Set([valueKey(leaf)]);
  for (const c of choices) {
    if (out.length === k) break;
    const raw = leaf.raw.slice(0, leaf.open) + body.slice(0, at) + c + body.slice(at + 1) + leaf.raw.slice(leaf.raw.length - leaf.close);
    const variant = { ...leaf, raw };
    const key = valueKey(variant);
    if (seen.has(key) || context.taken.has(key) || (leaf.kind === 'number' && !Number.isFinite(Number(numeric(raw))))) continue;
    seen.add(key);
    out.push(raw);
  }
  return shuffle(out, random);
}

/** The last file's character counts: a group's draws ask for the same file's many times over. */
let counted: { readonly text: string; readonly counts: ReadonlyMap<string, number> } | null = null;

/** How often each character occurs in `text` (kept for the last text asked about). */
function characterCounts(text: string): ReadonlyMap<string, number> {
  if (counted?.text !== text) {
    const counts = new Map<string, number>();
    for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
    counted = { text, counts };
  }
  return counted.counts;
}

/** The leaf's text between its quotes (the whole literal for numbers and booleans). */
export function content(leaf: Leaf): string {
  return leaf.raw.slice(leaf.open, leaf.raw.length - leaf.close);
}

/** What the assertion compares: a string's text, a number's value. */
export function valueKey(leaf: Leaf): string {
  return leaf.kind === 'number' ? String(Number(numeric(leaf.raw))) : `${leaf.kind}:${content(leaf)}`;
}

function numeric(raw: string): string {
  return raw.replace(/(f32|f64)$/, '').replace(/_/g, '');
}

function numberShape(raw: string): string {
  return /[.eE]/.test(numeric(raw)) ? 'float' : 'int';
}

function inExponent(leaf: Leaf, body: string, i: number): boolean {
  return leaf.kind === 'number' && /[eE]/.test(body.slice(0, i));
}

function flipBoolean(raw: string): string {
  const flipped = { true: 'false', false: 'true', True: 'False', False: 'True' }[raw];
  return flipped ?? raw;
}


/** Whether exactly one of the texts has the least total edit distance to the others. */
export function hasUniqueCentre(texts: readonly string[]): boolean {
  if (texts.length < 3) return false;
  const totals = texts.map((a) => texts.reduce((sum, b) => sum + editDistance(a, b), 0));
  const least = Math.min(...totals);
  return totals.filter((t) => t === least).length === 1;
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length]!;
}
