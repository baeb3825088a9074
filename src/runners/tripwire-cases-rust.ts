import { children, lastIndexOf, named, type SyntaxNode } from './source-parser.js';
import { indentAt, normalized, type Leaf, type Site, type TestCase, type TestFileCases } from './tripwire-cases.js';

/*
 * Rust test files (cargo): functions with a `#[test]` attribute, at the top level or in
 * `mod` blocks, their attributes included. Sites: `assert_eq!(a, b[, msg…])` as statements of
 * the function's body, with one side plain data as tokens: string, raw string, char, float and
 * small integer literals (at most 99, so a changed digit fits every integer type), booleans,
 * `vec![…]`, arrays and slices, tuples, `Some`/`Ok`/`Err` of those, `String::from("…")` and
 * `"…".to_string()`/`.to_owned()`/`.into()`.
 */

export function rustTestCases(root: SyntaxNode, text: string): TestFileCases {
  const cases: TestCase[] = [];
  const names = new Set<string>();
  const visit = (items: readonly SyntaxNode[], path: readonly string[]): void => {
    let attributes: SyntaxNode[] = [];
    for (const item of items) {
      if (item.type === 'attribute_item') {
        attributes.push(item);
        continue;
      }
      const pending = attributes;
      attributes = [];
      if (item.type === 'line_comment' || item.type === 'block_comment') continue;
      const name = item.childForFieldName('name');
      if (name) names.add(name.text);
      const body = item.childForFieldName('body');
      if (item.type === 'mod_item' && name && body) visit(named(body), [...path, name.text]);
      if (item.type !== 'function_item' || !name || !body || !pending.some((a) => /^#\[\s*test\s*\]$/.test(a.text))) continue;
      const sites = named(body).map(site).filter((s): s is Site => s !== null);
      const start = pending[0]!.startIndex;
      cases.push({ path, name: name.text, nameSpan: { start: name.startIndex, end: name.endIndex }, span: { start, end: item.endIndex }, indent: indentAt(text, start), sites });
    }
  };
  visit(named(root), []);
  for (const node of root.descendantsOfType('identifier')) if (node) names.add(node.text);
  const items = named(root).filter((s) => s.type !== 'line_comment' && s.type !== 'block_comment');
  const lastUse = lastIndexOf(items, (s) => s.type === 'use_declaration' || s.type === 'extern_crate_declaration');
  // after an item, never between an attribute and what it belongs to
  const insertPoints = items.slice(Math.max(0, lastUse)).filter((s) => s.type !== 'attribute_item' && s.type !== 'inner_attribute_item').map((s) => s.endIndex);
  const literals = root.descendantsOfType(['string_literal', 'raw_string_literal', 'char_literal', 'integer_literal', 'float_literal']).flatMap((n) => (n ? (single(n) ?? []) : []));
  return { language: 'rust', cases, names, literals, expectedLeaves: cases.flatMap((c) => c.sites.flatMap((site) => site.leaves)), insertPoints };
}

function site(statement: SyntaxNode): Site | null {
  if (statement.type !== 'expression_statement') return null;
  const macro = named(statement)[0];
  if (macro?.type !== 'macro_invocation' || macro.childForFieldName('macro')?.text !== 'assert_eq') return null;
  const tree = named(macro).find((c) => c.type === 'token_tree');
  const args = splitArguments(tree);
  if (args.length < 2) return null;
  const second = leaves(args[1]!);
  const first = second === null ? leaves(args[0]!) : null;
  const expected = second ?? first;
  if (expected === null || expected.length === 0) return null;
  const actual = second !== null ? args[0]! : args[1]!;
  return { span: { start: statement.startIndex, end: statement.endIndex }, leaves: expected, actual: normalized(actual.map((t) => t.text).join(' ')) };
}

/** The tokens between a token tree's brackets, split at its own commas. */
function splitArguments(tree: SyntaxNode | undefined | null): SyntaxNode[][] {
  const inner = children(tree).slice(1, -1);
  if (inner.length === 0) return [];
  const out: SyntaxNode[][] = [[]];
  for (const token of inner) {
    if (token.type === ',') out.push([]);
    else out.at(-1)!.push(token);
  }
  // a trailing comma leaves an empty last argument
  return out.at(-1)!.length === 0 ? out.slice(0, -1) : out;
}

const bracket = (t: SyntaxNode | undefined, open: string): boolean => t?.type === 'token_tree' && children(t)[0]?.type === open;

/** The literal leaves of plain data written as tokens, or null. */
function leaves(tokens: readonly SyntaxNode[]): Leaf[] | null {
  const [a, b, c, d] = tokens;
  if (!a) return null;
  if (tokens.length === 1) return single(a);
  if (a.type === '&') return leaves(tokens.slice(1));
  if (tokens.length === 2 && a.type === '-' && b && (b.type === 'integer_literal' || b.type === 'float_literal')) return single(b);
  if (tokens.length === 3 && a.text === 'vec' && b?.type === '!' && bracket(c, '[')) return elements(c!);
  if (tokens.length === 2 && ['Some', 'Ok', 'Err'].includes(a.text) && bracket(b, '(')) return elements(b!);
  if (tokens.length === 4 && a.text === 'String' && b?.type === '::' && c?.text === 'from' && bracket(d, '(')) return elements(d!);
  if (tokens.length === 4 && a.type === 'string_literal' && b?.type === '.' && ['to_string', 'to_owned', 'into'].includes(c?.text ?? '') && bracket(d, '(') && children(d).length === 2) return single(a);
  return null;
}

function elements(tree: SyntaxNode): Leaf[] | null {
  const out: Leaf[] = [];
  for (const tokens of splitArguments(tree)) {
    const found = leaves(tokens);
    if (found === null) return null;
    out.push(...found);
  }
  return out;
}

function single(token: SyntaxNode): Leaf[] | null {
  const span = { start: token.startIndex, end: token.endIndex };
  const raw = token.text;
  switch (token.type) {
    case 'token_tree':
      return bracket(token, '[') || bracket(token, '(') ? elements(token) : null;
    case 'string_literal':
    case 'char_literal': {
      const open = raw.indexOf(raw.endsWith("'") ? "'" : '"') + 1;
      return open > 0 ? [{ span, kind: 'string', raw, open, close: 1 }] : null;
    }
    case 'raw_string_literal': {
      const open = raw.indexOf('"') + 1;
      const hashes = raw.length - raw.trimEnd().replace(/#+$/, '').length;
      return open > 0 ? [{ span, kind: 'string', raw, open, close: hashes + 1 }] : null;
    }
    case 'float_literal':
      return /^[0-9][0-9.eE+-]*(f32|f64)?$/.test(raw) ? [{ span, kind: 'number', raw, open: 0, close: 0 }] : null;
    case 'integer_literal':
      // a changed digit of a larger literal may not fit the type it is compared as (a compile error)
      return /^[0-9]{1,2}$/.test(raw) ? [{ span, kind: 'number', raw, open: 0, close: 0 }] : null;
    case 'boolean_literal':
      return [{ span, kind: 'boolean', raw, open: 0, close: 0 }];
    default:
      return raw === 'true' || raw === 'false' ? [{ span, kind: 'boolean', raw, open: 0, close: 0 }] : null;
  }
}
