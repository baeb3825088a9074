import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bakeoff, FIXTURES } from './helpers.js';
import { tempDir, writeFiles, type Files } from './git-fixtures.js';

/*
 * `bakeoff import exercism` on track folders the test builds in the layout of exercism/python,
 * exercism/rust and exercism/javascript (config.json with the track slug;
 * exercises/practice/<slug>/ with .docs/instructions.md, .meta/config.json naming the
 * solution, test and example files, the stub, the tests): every test but the first skipped as
 * the tracks ship them (`#[ignore]`, `xtest(`). The exercises are the test's own. The
 * JavaScript exercise is CommonJS with jest from a lockfile (the real track adds babel for
 * ES modules; its layout and skips are the same).
 */

const meta = (solution: string[], test: string[], example: string[]) => JSON.stringify({ authors: ['t'], files: { solution, test, example }, blurb: 'x' }, null, 2);

const PY: Files = {
  'config.json': JSON.stringify({ language: 'Python', slug: 'python', active: true }),
  'exercises/practice/leap/.docs/instructions.md': '# Instructions\n\nGiven a year, report if it is a leap year.\n',
  'exercises/practice/leap/.meta/config.json': meta(['leap.py'], ['leap_test.py'], ['.meta/example.py']),
  'exercises/practice/leap/.meta/example.py': 'def leap_year(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n',
  'exercises/practice/leap/leap.py': 'def leap_year(year):\n    pass\n',
  'exercises/practice/leap/leap_test.py':
    'import unittest\n\nfrom leap import leap_year\n\n\nclass LeapTest(unittest.TestCase):\n    def test_year_not_divisible_by_4(self):\n        self.assertIs(leap_year(2015), False)\n\n    def test_year_divisible_by_4(self):\n        self.assertIs(leap_year(1996), True)\n\n    def test_year_divisible_by_100(self):\n        self.assertIs(leap_year(1900), False)\n',
};

const RUST_TEST = 'use reverse_string::*;\n\n#[test]\nfn an_empty_string() {\n    assert_eq!(reverse(""), "");\n}\n\n#[test]\n#[ignore]\nfn a_word() {\n    assert_eq!(reverse("robot"), "tobor");\n}\n\n#[test]\n#[ignore]\nfn a_sentence() {\n    assert_eq!(reverse("I\'m hungry!"), "!yrgnuh m\'I");\n}\n';
const RUST: Files = {
  'config.json': JSON.stringify({ language: 'Rust', slug: 'rust' }),
  'exercises/practice/reverse-string/.docs/instructions.md': '# Instructions\n\nReverse a string.\n',
  'exercises/practice/reverse-string/.docs/instructions.append.md': '# Instructions append\n\nUse `chars()`.\n',
  'exercises/practice/reverse-string/.meta/config.json': meta(['src/lib.rs', 'Cargo.toml'], ['tests/reverse-string.rs'], ['.meta/example.rs']),
  'exercises/practice/reverse-string/.meta/example.rs': 'pub fn reverse(input: &str) -> String {\n    input.chars().rev().collect()\n}\n',
  'exercises/practice/reverse-string/Cargo.toml': '[package]\nname = "reverse_string"\nversion = "1.2.0"\nedition = "2021"\n',
  'exercises/practice/reverse-string/src/lib.rs': 'pub fn reverse(input: &str) -> String {\n    todo!("Write a function to reverse {input}");\n}\n',
  'exercises/practice/reverse-string/tests/reverse-string.rs': RUST_TEST,
};

describe('bakeoff import exercism', () => {
  let work: string;
  let js: Files;

  beforeAll(async () => {
    work = await tempDir('bakeoff-exercism-');
    const npm = path.join(FIXTURES, 'tasks/bytes-rollover/repo');
    js = {
      'config.json': JSON.stringify({ language: 'JavaScript', slug: 'javascript' }),
      'exercises/practice/two-fer/.docs/instructions.md': '# Instructions\n\nSay "One for X, one for me."\n',
      'exercises/practice/two-fer/.meta/config.json': meta(['two-fer.js'], ['two-fer.spec.js'], ['.meta/proof.ci.js']),
      'exercises/practice/two-fer/.meta/proof.ci.js': "exports.twoFer = (name = 'you') => `One for ${name}, one for me.`;\n",
      'exercises/practice/two-fer/two-fer.js': "exports.twoFer = () => {\n  throw new Error('Remove this statement and implement this function');\n};\n",
      'exercises/practice/two-fer/two-fer.spec.js':
        "const { twoFer } = require('./two-fer');\n\ndescribe('twoFer()', () => {\n  test('no name given', () => {\n    expect(twoFer()).toEqual('One for you, one for me.');\n  });\n\n  xtest('a name given', () => {\n    expect(twoFer('Alice')).toEqual('One for Alice, one for me.');\n  });\n});\n",
      'exercises/practice/two-fer/package.json': await readFile(path.join(npm, 'package.json'), 'utf8'),
      'exercises/practice/two-fer/package-lock.json': await readFile(path.join(npm, 'package-lock.json'), 'utf8'),
    };
    await writeFiles(path.join(work, 'python'), PY);
    await writeFiles(path.join(work, 'rust'), RUST);
    await writeFiles(path.join(work, 'javascript'), js);
  });

  it('admits an exercise per language: the example solves it, the skipped tests are switched on', async () => {
    for (const track of ['python', 'rust', 'javascript']) {
      const r = await bakeoff(['import', 'exercism', track, '--suite', 'suite', '--json'], { cwd: work });
      expect(r.exitCode, `${track}: ${r.stdout}\n${r.stderr}`).toBe(0);
    }
    const json = JSON.parse((await bakeoff(['validate', 'suite', '--json'], { cwd: work })).stdout) as { tasks: { id: string; admitted: boolean; failToPass: number; passToPass: number }[] };
    expect(json.tasks).toMatchObject([
      { id: 'javascript-two-fer', admitted: true, failToPass: 2, passToPass: 0 },
      { id: 'python-leap', admitted: true, failToPass: 3, passToPass: 0 },
      { id: 'rust-reverse-string', admitted: true, failToPass: 3, passToPass: 0 },
    ]);
    const rust = path.join(work, 'suite/tasks/rust-reverse-string');
    expect(await readFile(path.join(rust, 'orders/1/hidden/tests/reverse-string.rs'), 'utf8')).toBe(RUST_TEST.replaceAll('#[ignore]\n', ''));
    expect(await readFile(path.join(rust, 'orders/1/prompt.md'), 'utf8')).toBe('# Instructions\n\nReverse a string.\n\n# Instructions append\n\nUse `chars()`.\n');
    expect(await readFile(path.join(rust, 'orders/1/gold.patch'), 'utf8')).toContain('+    input.chars().rev().collect()');
    const manifest = parseYaml(await readFile(path.join(rust, 'task.yaml'), 'utf8'));
    expect(manifest).toMatchObject({ language: 'rust', test: { command: 'cargo test', format: 'cargo' }, origin: { kind: 'exercism', id: 'reverse-string' } });
    const jsHidden = await readFile(path.join(work, 'suite/tasks/javascript-two-fer/orders/1/hidden/two-fer.spec.js'), 'utf8');
    expect(jsHidden).not.toContain('xtest(');
    await expect(readFile(path.join(work, 'suite/tasks/javascript-two-fer/repo/two-fer.spec.js'))).rejects.toThrow();
    await expect(readFile(path.join(work, 'suite/tasks/python-leap/repo/.meta/example.py'))).rejects.toThrow();
  });

  it('refuses a track bakeoff has no runner for and an unknown exercise, naming file and field (exit 2)', async () => {
    await writeFiles(path.join(work, 'go'), { 'config.json': JSON.stringify({ slug: 'go' }), 'exercises/practice/leap/.meta/config.json': '{}' });
    const go = await bakeoff(['import', 'exercism', 'go', '--suite', 'other'], { cwd: work });
    expect(go.exitCode).toBe(2);
    expect(go.stderr).toContain('go/config.json: slug: expected an Exercism track bakeoff has a runner for (python, javascript, typescript, rust), received "go"');
    const unknown = await bakeoff(['import', 'exercism', 'python', '--suite', 'other', '--exercises', 'bob'], { cwd: work });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('--exercises bob: not in');
  });
});
