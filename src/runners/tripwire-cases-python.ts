import { lastIndexOf, named, type SyntaxNode } from './source-parser.js';
import { indentAt, normalized, type Leaf, type Site, type TestCase, type TestFileCases } from './tripwire-cases.js';

/*
 * Python test files (pytest, unittest under pytest or a JUnit runner): module-level `test*`
 * functions and `test*` methods of classes at any depth, decorators included. Sites: `assert
 * <a> == <b>[, msg]` and `self.assertEqual(<a>, <b>[, msg])` (and its list/tuple/dict/set/
 * sequence/multi-line variants) as statements of the body, with one side plain data: strings
 * (no f-strings), numbers, booleans, None, lists, tuples, sets, dicts of those, and
 * `Decimal(...)`/`Fraction(...)` of them when the file imports those names from the standard
 * library.
 */

const EQUAL_METHODS = new Set(['assertEqual', 'assertEquals', 'assertListEqual', 'assertTupleEqual', 'assertDictEqual', 'assertSetEqual', 'assertSequenceEqual', 'assertMultiLineEqual', 'assertCountEqual']);
/** Constructors of the standard library that map distinct literals to unequal values. */
const STDLIB_VALUES: Readonly<Record<string, string>> = { Decimal: 'decimal', Fraction: 'fractions' };

export function pythonTestCases(root: SyntaxNode, text: string): TestFileCases {
  const values = stdlibValueNames(root);
  const cases: TestCase[] = [];
  const names = new Set<string>();
  const visit = (block: SyntaxNode, path: readonly string[]): void => {
    for (const statement of named(block)) {
      const definition = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
      const name = definition?.childForFieldName('name');
      if (!definition || !name) continue;
      names.add(name.text);
      const body = definition.childForFieldName('body');
      if (definition.type === 'class_definition' && body) visit(body, [...path, name.text]);
      if (definition.type !== 'function_definition' || !body || !name.text.startsWith('test')) continue;
      const sites = named(body).map((s) => site(s, values)).filter((s): s is Site => s !== null);
      cases.push({
        path,
        name: name.text,
        nameSpan: { start: name.startIndex, end: name.endIndex },
        span: { start: statement.startIndex, end: statement.endIndex },
        indent: indentAt(text, statement.startIndex),
        sites,
      });
    }
  };
  visit(root, []);
  for (const node of root.descendantsOfType('identifier')) if (node) names.add(node.text);
  const literals = root.descendantsOfType(['string', 'integer', 'float']).flatMap((n) => (n ? (leaves(n, values) ?? []) : []));
  return { language: 'python', cases, names, literals, expectedLeaves: cases.flatMap((c) => c.sites.flatMap((site) => site.leaves)), insertPoints: insertPoints(root) };
}

/** Names bound to standard-library value constructors by `from decimal import Decimal` and the like. */
function stdlibValueNames(root: SyntaxNode): Set<string> {
  const out = new Set<string>();
  for (const statement of named(root)) {
    if (statement.type !== 'import_from_statement') continue;
    const module = statement.childForFieldName('module_name')?.text;
    for (const name of statement.childrenForFieldName('name')) {
      // `from decimal import Decimal` (not `... as D`: an alias is fine too, but rare; keep it plain)
      if (name?.type === 'dotted_name' && STDLIB_VALUES[name.text] === module) out.add(name.text);
    }
  }
  return out;
}

function site(statement: SyntaxNode, values: ReadonlySet<string>): Site | null {
  let sides: [SyntaxNode, SyntaxNode] | null = null;
  if (statement.type === 'assert_statement') {
    const test = named(statement)[0];
    const operands = named(test);
    if (test?.type === 'comparison_operator' && operands.length === 2 && test.childrenForFieldName('operators').length === 1 && test.childForFieldName('operators')?.type === '==') {
      sides = [operands[0]!, operands[1]!];
    }
  } else if (statement.type === 'expression_statement') {
    const call = named(statement)[0];
    const fn = call?.type === 'call' ? call.childForFieldName('function') : null;
    const args = named(call?.childForFieldName('arguments')).filter((a) => a.type !== 'keyword_argument' && a.type !== 'comment');
    if (fn?.type === 'attribute' && fn.childForFieldName('object')?.text === 'self' && EQUAL_METHODS.has(fn.childForFieldName('attribute')?.text ?? '') && args.length >= 2) {
      sides = [args[0]!, args[1]!];
    }
  }
  if (sides === null) return null;
  // the expected side is the literal one; when both are, the second
  const second = leaves(sides[1], values);
  const first = second === null ? leaves(sides[0], values) : null;
  const expected = second ?? first;
  if (expected === null || expected.length === 0) return null;
  const actual = second !== null ? sides[0] : sides[1];
  return { span: { start: statement.startIndex, end: statement.endIndex }, leaves: expected, actual: normalized(actual.text) };
}

/** The literal leaves of plain data, or null when `node` is anything else. */
function leaves(node: SyntaxNode, values: ReadonlySet<string>): Leaf[] | null {
  const span = { start: node.startIndex, end: node.endIndex };
  switch (node.type) {
    case 'string': {
      const open = named(node).find((c) => c.type === 'string_start');
      const close = named(node).find((c) => c.type === 'string_end');
      const inner = named(node).filter((c) => c.type !== 'string_start' && c.type !== 'string_end');
      if (!open || !close || /[fF]/.test(open.text) || inner.some((c) => c.type !== 'string_content')) return null;
      return [{ span, kind: 'string', raw: node.text, open: open.text.length, close: close.text.length }];
    }
    case 'integer':
    case 'float':
      return /^[0-9.eE+-]+$/.test(node.text) ? [{ span, kind: 'number', raw: node.text, open: 0, close: 0 }] : null;
    case 'true':
    case 'false':
      return [{ span, kind: 'boolean', raw: node.text, open: 0, close: 0 }];
    case 'none':
      return [];
    case 'unary_operator':
      return node.childForFieldName('operator')?.text === '-' && ['integer', 'float'].includes(node.childForFieldName('argument')?.type ?? '') ? leaves(node.childForFieldName('argument')!, values) : null;
    case 'parenthesized_expression':
    case 'list':
    case 'tuple':
    case 'set':
      return all(named(node), values);
    case 'dictionary': {
      // keys must be plain too, but only values vary (a changed key could meet another)
      const pairs = named(node).filter((p) => p.type !== 'comment');
      if (pairs.some((p) => p.type !== 'pair' || leaves(p.childForFieldName('key')!, values) === null)) return null;
      return all(pairs.map((p) => p.childForFieldName('value')), values);
    }
    case 'call': {
      const fn = node.childForFieldName('function');
      const args = named(node.childForFieldName('arguments'));
      return fn?.type === 'identifier' && values.has(fn.text) ? all(args, values) : null;
    }
    default:
      return null;
  }
}

function all(nodes: readonly (SyntaxNode | null)[], values: ReadonlySet<string>): Leaf[] | null {
  const out: Leaf[] = [];
  for (const node of nodes) {
    if (node?.type === 'comment') continue;
    const found = node ? leaves(node, values) : null;
    if (found === null) return null;
    out.push(...found);
  }
  return out;
}

/** After each top-level statement that is not an import (and after the last import). */
function insertPoints(root: SyntaxNode): number[] {
  const statements = named(root).filter((s) => s.type !== 'comment');
  const lastImport = lastIndexOf(statements, (s) => /import/.test(s.type));
  return statements.slice(Math.max(0, lastImport)).map((s) => s.endIndex);
}
