import type { SourceLanguage } from './source-parser.js';

/*
 * The tests of one test file as the tripwires see them (read by find-test-cases.ts) (grade/tripwire-groups.ts): each test's
 * name and where its whole definition is, and its *sites* — assertions directly in its body that
 * compare a value with a literal the way a real failing test fails (`assert x == "a"`,
 * `expect(x).toBe('a')`, `assert.equal(x, 1)`, `t.equal(x, 1)`, `assert_eq!(x, vec!["a"])`). A
 * tripwire group copies a test and changes one literal *leaf* of one site, so each copy asks
 * the same code the same question and expects another answer. Only what is certain is read: a
 * site must be a statement of the test body itself (not in a loop, a branch or a callback), an
 * exact-equality assertion, and its literal side plain data; anything else is no site.
 */

/** A range of the file's text (UTF-16 offsets, end exclusive). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** One literal value inside an expected side: what a tripwire copy changes. */
export interface Leaf {
  readonly span: Span;
  readonly kind: 'string' | 'number' | 'boolean';
  /** The literal as written (quotes, prefixes and suffixes included). */
  readonly raw: string;
  /** For strings: how many characters of `raw` open and close it (`'` 1, `"""` 3, `r#"` 3 …). */
  readonly open: number;
  readonly close: number;
}

/** An assertion of a test body that compares a computed value with plain literal data. */
export interface Site {
  readonly span: Span;
  /** The literal leaves of its expected side. */
  readonly leaves: readonly Leaf[];
  /** The other side's text, whitespace-normalized (what is computed). */
  readonly actual: string;
}

export interface TestCase {
  /** The containers it is defined in: describe titles, class names, module names, outermost first. */
  readonly path: readonly string[];
  /** Its name: a JavaScript title (decoded), a Python or Rust function name. */
  readonly name: string;
  /** Where the name is written (a JavaScript title's whole string literal, quotes included). */
  readonly nameSpan: Span;
  /** Its whole definition, decorators and attributes included. */
  readonly span: Span;
  /** The indentation its definition starts at. */
  readonly indent: string;
  readonly sites: readonly Site[];
}

export interface TestFileCases {
  readonly language: SourceLanguage;
  readonly cases: readonly TestCase[];
  /** Every test name, title and container name the file has (a new name must not be one). */
  readonly names: ReadonlySet<string>;
  /** Every literal of the file (strings, numbers; inputs, titles and expected values alike), as leaves: what is counted. */
  readonly literals: readonly Leaf[];
  /** The leaves of every site's expected side: the answers the file's tests expect, what other answers are drawn from. */
  readonly expectedLeaves: readonly Leaf[];
  /** Offsets just after a top-level statement, past the imports: where a test of bakeoff's own may go. */
  readonly insertPoints: readonly number[];
}

/** The indentation of the line `offset` is on, up to `offset`. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : '';
}

/** Whitespace runs as one space: the same expression written twice compares equal. */
export function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
