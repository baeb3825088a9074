import { describe, expect, it } from 'vitest';
import { findTestCases } from './find-test-cases.js';
import type { TestFileCases } from './tripwire-cases.js';

/** Each test as `path > name: leaf,leaf ; leaf` (its sites' literal leaves). */
function outline(cases: TestFileCases | null): string[] {
  return (cases?.cases ?? []).map((c) => `${[...c.path, c.name].join(' > ')}: ${c.sites.map((s) => s.leaves.map((l) => l.raw).join(',')).join(' ; ')}`);
}

describe('findTestCases', () => {
  it('reads Python tests: functions and methods, equality asserts with plain data, Decimal from the standard library', async () => {
    const text = [
      'from decimal import Decimal',
      'import unittest',
      '',
      '@pytest.mark.parametrize("x", [1])',
      'def test_a(x):',
      '    assert f(x) == Decimal("2.5"), "message"',
      '    assert g() == [1, -2.5, "s", None, {"k": True}]',
      '    assert h() != 3',
      '    assert 0 < h() == 3',
      '    for v in []:',
      '        assert v == 1',
      '    assert k() == Money("1")',
      '    assert m() == f"{x}"',
      '',
      'class TestB(unittest.TestCase):',
      '    def test_b(self):',
      '        self.assertEqual(f(1), "one")',
      '        self.assertEqual("two", f(2))',
      '    def helper(self):',
      '        assert f(3) == 3',
      '',
      'def helper_test():',
      '    assert f(4) == 4',
    ].join('\n');
    const cases = await findTestCases('tests/test_x.py', text);
    expect(outline(cases)).toEqual(['test_a: "2.5" ; 1,2.5,"s",True', 'TestB > test_b: "one" ; "two"']);
    const site = cases!.cases[1]!.sites[1]!;
    expect(site.actual).toBe('f(2)');
    expect(text.slice(cases!.cases[0]!.span.start, cases!.cases[0]!.span.start + 1)).toBe('@');
    expect(cases!.cases[1]!.indent).toBe('    ');
    expect(cases!.names.has('helper_test')).toBe(true);
  });

  it('reads JavaScript and TypeScript tests inside describe blocks, with node:assert, expect, chai and tape assertions', async () => {
    const text = [
      "import { describe, it } from 'node:test';",
      "describe('group', () => {",
      "  describe(`inner`, () => {",
      "    it('one', async () => {",
      "      assert.deepEqual(parse('a'), [{ a: 'x', b: -1 }] as const);",
      "      expect(f(1)).toBe('1 MiB');",
      "      expect(f(2)).to.deep.equal(2.5);",
      "      t.equal(f(3), 3, 'msg');",
      "      expect(f(4)).not.toBe(4);",
      "      if (x) expect(f(5)).toBe(5);",
      "      expect(f(6)).toBe(`${x}`);",
      "      expect(f(7)).toBe('a\\nb');",
      '    });',
      '  });',
      '});',
      "test('two', { timeout: 1 }, function () { assert.equal('lit', g()); });",
      "test('three', () => { expect(h()).toEqual([1]); }, 5000);",
      "it.each([1])('each %s', (n) => { expect(n).toBe(1); });",
      "test(`computed ${x}`, () => {});",
    ].join('\n');
    const cases = await findTestCases('test/x.test.ts', text);
    expect(outline(cases)).toEqual(["group > inner > one: 'x',1 ; '1 MiB' ; 2.5 ; 3 ; 'a\\nb'", "two: 'lit'", 'three: 1']);
    expect(cases!.cases[0]!.indent).toBe('    ');
    const title = cases!.cases[0]!.nameSpan;
    expect(text.slice(title.start, title.end)).toBe("'one'");
  });

  it('reads Rust tests: #[test] functions at the top and in modules, assert_eq! with plain data as tokens', async () => {
    const text = [
      'use lib::f;',
      '#[test]',
      '#[should_panic]',
      'fn a() { assert_eq!(f("x"), vec!["a", "b"]); assert_eq!(g(), 2.5f64, "msg {}", 1); assert_eq!(h(), 300); }',
      'mod inner {',
      '    #[test]',
      '    fn b() {',
      '        assert_eq!(f(), &["a"]);',
      '        assert_eq!(String::from("q"), h());',
      '        assert_eq!(k(), "z".to_string());',
      '        assert_eq!(m(), Some((7, -2)));',
      '        assert!(f() == 1);',
      '    }',
      '}',
      'fn helper() { assert_eq!(f(), 1); }',
    ].join('\n');
    const cases = await findTestCases('tests/x.rs', text);
    // 300 is no site: a changed digit may not fit the type it is compared as
    expect(outline(cases)).toEqual(['a: "a","b" ; 2.5f64', 'inner > b: "a" ; "q" ; "z" ; 7,2']);
    expect(text.slice(cases!.cases[0]!.span.start).startsWith('#[test]\n#[should_panic]')).toBe(true);
  });

  it('reads nothing from a file that does not parse, or of a language it does not know', async () => {
    expect(await findTestCases('tests/test_x.py', 'def test_a(:\n')).toBeNull();
    expect(await findTestCases('test/x.go', 'package x')).toBeNull();
  });
  it("reads mocha's qunit interface: a suite('title') without a function holds the tests after it, up to the next one", async () => {
    const text = [
      "const assert = require('node:assert');",
      "test('before any suite', function () { assert.equal(f(0), 0); });",
      "suite('first');",
      "test('a', function () { assert.equal(f(1), 1); });",
      "suite('second');",
      "test('b', function () { assert.equal(f(2), 2); });",
      "describe('nested', function () { it('c', function () { assert.equal(f(3), 3); }); });",
    ].join('\n');
    expect(outline(await findTestCases('test/q.js', text))).toEqual(['before any suite: 0', 'first > a: 1', 'second > b: 2', 'second > nested > c: 3']);
  });

  it("puts bakeoff's tests after the last `module.exports =` (mocha's exports interface: tests before it would be replaced)", async () => {
    const text = ["const assert = require('node:assert');", 'const x = 1;', "module.exports = { s: { 't': function () { assert.equal(x, 1); } } };", 'const y = 2;'].join('\n');
    const cases = await findTestCases('test/e.js', text);
    expect(cases!.cases).toEqual([]);
    expect(cases!.insertPoints.map((p) => text.slice(0, p).split('\n').length)).toEqual([3, 4]);
  });
});
