import { lastIndexOf, named, type SourceLanguage, type SyntaxNode } from './source-parser.js';
import { indentAt, normalized, type Leaf, type Site, type Span, type TestCase, type TestFileCases } from './tripwire-cases.js';

/*
 * JavaScript and TypeScript test files (node:test, vitest, jest, mocha, tape): calls of `test`,
 * `it` or `specify` (tape's `test` or `tape`) with a plain title and a function, at the top
 * level or in the function of a `describe`/`suite`/`context` call with a plain title, or after a
 * `suite('title')` call without a function (mocha's qunit interface: the tests up to the next
 * such call are that suite's). mocha's exports interface (tests as the functions of
 * `module.exports`) has no test calls: no cases, so wires. Sites, as
 * statements of the test function's own body: `expect(a).toBe|toEqual|toStrictEqual(b)`, chai's
 * `expect(a).to[.deep].equal|eql(b)`, and `<x>.equal|equals|strictEqual|deepEqual|
 * deepStrictEqual|same|strictSame|isEqual|deepEquals(a, b[, msg])` (node:assert, tape's and
 * node-tap's `t`), with one side plain data: strings and template strings without
 * substitutions, numbers, booleans, null, undefined, arrays and objects of those (`as const`
 * allowed).
 */

const TEST_FUNCTIONS = new Set(['test', 'it', 'specify', 'tape']);
const GROUP_FUNCTIONS = new Set(['describe', 'suite', 'context']);
const EXPECT_MATCHERS = new Set(['toBe', 'toEqual', 'toStrictEqual']);
const CHAI_MATCHERS = new Set(['equal', 'equals', 'eq', 'eql']);
const CHAI_WORDS = new Set(['to', 'be', 'been', 'is', 'that', 'which', 'and', 'has', 'have', 'with', 'at', 'of', 'same', 'deep', 'strict']);
const ASSERT_METHODS = new Set(['equal', 'equals', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'same', 'strictSame', 'isEqual', 'deepEquals', 'strictEquals']);

export function jsTestCases(root: SyntaxNode, text: string, language: SourceLanguage): TestFileCases {
  const cases: TestCase[] = [];
  const names = new Set<string>();
  const visit = (statements: readonly SyntaxNode[], outer: readonly string[]): void => {
    // mocha's qunit interface: `suite('title')` without a function holds the tests after it, up to the next one
    let path = outer;
    for (const statement of statements) {
      const call = callOf(statement);
      if (call === null) continue;
      const { callee, title, fn } = call;
      if (title !== null) names.add(title.value);
      if (callee === 'suite' && title !== null && fn === null && call.args === 1) path = [...outer, title.value];
      if (title === null || fn === null) continue;
      const body = fn.childForFieldName('body');
      if (GROUP_FUNCTIONS.has(callee) && body?.type === 'statement_block') visit(named(body), [...path, title.value]);
      if (!TEST_FUNCTIONS.has(callee)) continue;
      const sites = body?.type === 'statement_block' ? named(body).map(site).filter((s): s is Site => s !== null) : [];
      cases.push({ path, name: title.value, nameSpan: title.span, span: { start: statement.startIndex, end: statement.endIndex }, indent: indentAt(text, statement.startIndex), sites });
    }
  };
  visit(named(root), []);
  // titles the file gives in other ways (each, nested t.test) still must not be reused
  for (const node of root.descendantsOfType(['string', 'template_string'])) {
    const value = node ? plainString(node) : null;
    if (value !== null) names.add(value);
  }
  const literals = root.descendantsOfType(['string', 'template_string', 'number']).flatMap((n) => (n ? (leaves(n) ?? []) : []));
  return { language, cases, names, literals, expectedLeaves: cases.flatMap((c) => c.sites.flatMap((site) => site.leaves)), insertPoints: insertPoints(root) };
}

interface TestCall {
  readonly callee: string;
  readonly title: { readonly value: string; readonly span: Span } | null;
  readonly fn: SyntaxNode | null;
  /** How many arguments it is given. */
  readonly args: number;
}

/** `name('title', [options,] fn)` as a statement, with `name` a plain identifier. */
function callOf(statement: SyntaxNode): TestCall | null {
  if (statement.type !== 'expression_statement') return null;
  const call = named(statement)[0];
  if (call?.type !== 'call_expression') return null;
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'identifier') return null;
  const args = named(call.childForFieldName('arguments')).filter((a) => a.type !== 'comment');
  const first = args[0];
  const value = first ? plainString(first) : null;
  // the test function: after the title (node:test puts options between, jest a timeout after)
  const fn = args.slice(1).find((a) => a.type === 'arrow_function' || a.type === 'function_expression' || a.type === 'function') ?? null;
  return { callee: callee.text, title: first && value !== null ? { value, span: { start: first.startIndex, end: first.endIndex } } : null, fn, args: args.length };
}

/** The value of a string or template string with no escapes and no substitutions, else null. */
function plainString(node: SyntaxNode): string | null {
  if (node.type !== 'string' && node.type !== 'template_string') return null;
  const parts = named(node);
  if (parts.some((p) => p.type !== 'string_fragment')) return null;
  return parts.map((p) => p.text).join('');
}

function site(statement: SyntaxNode): Site | null {
  if (statement.type !== 'expression_statement') return null;
  const sides = assertionSides(named(statement)[0]);
  if (sides === null) return null;
  const second = leaves(sides[1]);
  const first = second === null ? leaves(sides[0]) : null;
  const expected = second ?? first;
  if (expected === null || expected.length === 0) return null;
  const actual = second !== null ? sides[0] : sides[1];
  return { span: { start: statement.startIndex, end: statement.endIndex }, leaves: expected, actual: normalized(actual.text) };
}

/** The two compared expressions of an exact-equality assertion call, else null. */
function assertionSides(call: SyntaxNode | undefined): [SyntaxNode, SyntaxNode] | null {
  if (call?.type !== 'call_expression') return null;
  const fn = call.childForFieldName('function');
  const args = named(call.childForFieldName('arguments')).filter((a) => a.type !== 'comment');
  if (fn?.type !== 'member_expression') return null;
  const method = fn.childForFieldName('property')?.text ?? '';
  const object = fn.childForFieldName('object');
  if (object?.type === 'identifier' && ASSERT_METHODS.has(method) && args.length >= 2) return [args[0]!, args[1]!];
  if (args.length !== 1) return null;
  if (EXPECT_MATCHERS.has(method)) {
    const actual = expectArgument(object);
    return actual ? [actual, args[0]!] : null;
  }
  if (CHAI_MATCHERS.has(method)) {
    let chain = object;
    while (chain?.type === 'member_expression' && CHAI_WORDS.has(chain.childForFieldName('property')?.text ?? '')) chain = chain.childForFieldName('object');
    const actual = expectArgument(chain);
    return actual ? [actual, args[0]!] : null;
  }
  return null;
}

/** `a` of `expect(a)` or `expect(a, message)`. */
function expectArgument(node: SyntaxNode | null | undefined): SyntaxNode | null {
  if (node?.type !== 'call_expression' || node.childForFieldName('function')?.text !== 'expect') return null;
  const args = named(node.childForFieldName('arguments')).filter((a) => a.type !== 'comment');
  return args.length >= 1 && args.length <= 2 ? args[0]! : null;
}

function leaves(node: SyntaxNode): Leaf[] | null {
  const span = { start: node.startIndex, end: node.endIndex };
  switch (node.type) {
    case 'string':
    case 'template_string':
      // escapes are fine in data (such a leaf is kept as it is); substitutions are not data
      return named(node).some((p) => p.type !== 'string_fragment' && p.type !== 'escape_sequence') ? null : [{ span, kind: 'string', raw: node.text, open: 1, close: 1 }];
    case 'number':
      return /^[0-9]*\.?[0-9]+([eE][+-]?[0-9]+)?$/.test(node.text) ? [{ span, kind: 'number', raw: node.text, open: 0, close: 0 }] : null;
    case 'true':
    case 'false':
      return [{ span, kind: 'boolean', raw: node.text, open: 0, close: 0 }];
    case 'null':
    case 'undefined':
      return [];
    case 'unary_expression':
      return node.childForFieldName('operator')?.text === '-' && node.childForFieldName('argument')?.type === 'number' ? leaves(node.childForFieldName('argument')!) : null;
    case 'parenthesized_expression':
    case 'array':
      return all(named(node));
    case 'as_expression': {
      const value = named(node)[0];
      return value && /\bas\s+const$/.test(node.text) ? leaves(value) : null;
    }
    case 'object':
      return all(named(node).flatMap((pair) => (pair.type === 'pair' && ['property_identifier', 'string', 'number'].includes(pair.childForFieldName('key')?.type ?? '') ? [pair.childForFieldName('value')] : [null])));
    default:
      return null;
  }
}

function all(nodes: readonly (SyntaxNode | null)[]): Leaf[] | null {
  const out: Leaf[] = [];
  for (const node of nodes) {
    if (node?.type === 'comment') continue;
    const found = node ? leaves(node) : null;
    if (found === null) return null;
    out.push(...found);
  }
  return out;
}

/**
 * After each top-level statement from the last import on, and from the last `module.exports =`
 * on (mocha's exports interface: tests added before it would be replaced with the object).
 */
function insertPoints(root: SyntaxNode): number[] {
  const statements = named(root).filter((s) => s.type !== 'comment' && s.type !== 'hash_bang_line');
  const lastImport = lastIndexOf(statements, (s) => s.type === 'import_statement' || /require\(/.test(s.type === 'lexical_declaration' || s.type === 'variable_declaration' ? s.text : ''));
  const lastExports = lastIndexOf(statements, (s) => s.type === 'expression_statement' && /^\(?\s*module\.exports\s*=[^=]/.test(s.text));
  return statements.slice(Math.max(0, lastImport, lastExports)).map((s) => s.endIndex);
}
