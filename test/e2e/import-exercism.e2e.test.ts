import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bakeoff, FIXTURES } from './helpers.js';
import { tempDir, writeFiles, type Files } from './git-fixtures.js';

/*
 * `bakeoff import exercism` on track folders the test builds in the layout of exercism/python,
 * exercism/rust, exercism/javascript and exercism/typescript (config.json with the track slug;
 * exercises/practice/<slug>/ with .docs/, .meta/config.json naming the solution, test and
 * example files, the stub, the tests): every test but the first skipped as the tracks ship them
 * (`#[ignore]`, `xtest(`, `xit(`). The JavaScript and TypeScript exercises are laid out as those
 * tracks lay them out — ES module sources and tests importing from `@jest/globals`, compiled by
 * babel-jest with Exercism's own babel preset (babel.config, jest.config, tsconfig.json) — with
 * the tracks' test toolchains installed by npm ci from the locks in test/fixtures/exercism/
 * (the tracks pin them with pnpm and yarn through corepack). The exercises are the test's own.
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

/** jest.config as the JavaScript and TypeScript tracks write it: babel-jest for every source, `./x.js` imports resolved to `./x`. */
const JEST_CONFIG = "module.exports = {\n  verbose: true,\n  projects: ['<rootDir>'],\n  testMatch: ['**/?(*.)+(spec|test).[jt]s?(x)'],\n  testPathIgnorePatterns: ['/node_modules/', '.d.ts$'],\n  transform: { '^.+\\\\.[jt]sx?$': 'babel-jest' },\n  moduleNameMapper: { '^(\\\\.\\\\/.+)\\\\.js$': '$1' },\n};\n";

/** An exercise's package.json and package-lock.json: the track's test toolchain (test/fixtures/exercism/<track>/). */
async function toolchain(track: string, dir: string): Promise<Files> {
  const from = path.join(FIXTURES, 'exercism', track);
  return {
    [`${dir}/package.json`]: await readFile(path.join(from, 'package.json'), 'utf8'),
    [`${dir}/package-lock.json`]: await readFile(path.join(from, 'package-lock.json'), 'utf8'),
  };
}

const TS_TEST = `import { describe, it, expect, xit } from '@jest/globals'
import { isLeap } from './leap.ts'

describe('A leap year', () => {
  it('is not a year not divisible by 4', () => {
    expect(isLeap(2015)).toBe(false)
  })

  xit('is a year divisible by 4 but not by 100', () => {
    expect(isLeap(1996)).toBe(true)
  })

  xit('is not a year divisible by 100 but not by 400', () => {
    expect(isLeap(1900)).toBe(false)
  })
})
`;

describe('bakeoff import exercism', () => {
  let work: string;

  beforeAll(async () => {
    work = await tempDir('bakeoff-exercism-');
    const js: Files = {
      'config.json': JSON.stringify({ language: 'JavaScript', slug: 'javascript' }),
      'exercises/practice/two-fer/.docs/instructions.md': '# Instructions\n\nSay "One for X, one for me."\n',
      'exercises/practice/two-fer/.meta/config.json': meta(['two-fer.js'], ['two-fer.spec.js'], ['.meta/proof.ci.js']),
      'exercises/practice/two-fer/.meta/proof.ci.js': "export const twoFer = (name = 'you') => `One for ${name}, one for me.`;\n",
      'exercises/practice/two-fer/two-fer.js': "export const twoFer = () => {\n  throw new Error('Remove this statement and implement this function');\n};\n",
      'exercises/practice/two-fer/two-fer.spec.js':
        "import { describe, expect, test, xtest } from '@jest/globals';\nimport { twoFer } from './two-fer';\n\ndescribe('twoFer()', () => {\n  test('no name given', () => {\n    expect(twoFer()).toEqual('One for you, one for me.');\n  });\n\n  xtest('a name given', () => {\n    expect(twoFer('Alice')).toEqual('One for Alice, one for me.');\n  });\n});\n",
      'exercises/practice/two-fer/babel.config.js': "module.exports = {\n  presets: [['@exercism/babel-preset-javascript', { corejs: '3.46' }]],\n  plugins: [],\n};\n",
      'exercises/practice/two-fer/jest.config.js': JEST_CONFIG,
      ...(await toolchain('javascript', 'exercises/practice/two-fer')),
    };
    const ts: Files = {
      'config.json': JSON.stringify({ language: 'TypeScript', slug: 'typescript' }),
      'exercises/practice/leap/.docs/introduction.md': '# Introduction\n\nA leap year has 366 days.\n',
      'exercises/practice/leap/.docs/instructions.md': '# Instructions\n\nGiven a year, report if it is a leap year.\n',
      'exercises/practice/leap/.meta/config.json': meta(['leap.ts'], ['leap.test.ts'], ['.meta/proof.ci.ts']),
      'exercises/practice/leap/.meta/proof.ci.ts': 'export function isLeap(year: number): boolean {\n  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)\n}\n',
      'exercises/practice/leap/leap.ts': "export function isLeap(year: number): boolean {\n  throw new Error('Remove this line and implement the function')\n}\n",
      'exercises/practice/leap/leap.test.ts': TS_TEST,
      'exercises/practice/leap/babel.config.cjs': "module.exports = {\n  presets: [[require('@exercism/babel-preset-typescript'), { corejs: '3.38' }]],\n  plugins: [],\n};\n",
      'exercises/practice/leap/jest.config.cjs': JEST_CONFIG,
      'exercises/practice/leap/tsconfig.json': JSON.stringify({ compilerOptions: { module: 'Node16', target: 'ES2020', strict: true, allowImportingTsExtensions: true, noEmit: true, isolatedModules: true }, include: ['*.ts', '.meta/*.ts'] }, null, 2),
      ...(await toolchain('typescript', 'exercises/practice/leap')),
    };
    await writeFiles(path.join(work, 'python'), PY);
    await writeFiles(path.join(work, 'rust'), RUST);
    await writeFiles(path.join(work, 'javascript'), js);
    await writeFiles(path.join(work, 'typescript'), ts);
  });

  it('admits an exercise per language: the example solves it, the skipped tests are switched on', async () => {
    let last = '';
    for (const track of ['python', 'rust', 'javascript', 'typescript']) {
      const r = await bakeoff(['import', 'exercism', track, '--suite', 'suite', '--json'], { cwd: work });
      expect(r.exitCode, `${track}: ${r.stdout}\n${r.stderr}`).toBe(0);
      last = r.stdout;
    }
    // each import validates the tasks it wrote and keeps the others' verdicts from the lock: the
    // last one's verdicts are the whole suite's (a validate of its own would only read them back)
    const json = JSON.parse(last) as { tasks: { id: string; admitted: boolean; failToPass: number; passToPass: number }[] };
    expect(json.tasks).toMatchObject([
      { id: 'javascript-two-fer', admitted: true, failToPass: 2, passToPass: 0 },
      { id: 'python-leap', admitted: true, failToPass: 3, passToPass: 0 },
      { id: 'rust-reverse-string', admitted: true, failToPass: 3, passToPass: 0 },
      { id: 'typescript-leap', admitted: true, failToPass: 3, passToPass: 0 },
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
    const tsTask = path.join(work, 'suite/tasks/typescript-leap');
    expect(await readFile(path.join(tsTask, 'orders/1/hidden/leap.test.ts'), 'utf8')).toBe(TS_TEST.replaceAll('  xit(', '  it('));
    expect(await readFile(path.join(tsTask, 'orders/1/gold.patch'), 'utf8')).toContain('+  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)');
    expect(parseYaml(await readFile(path.join(tsTask, 'task.yaml'), 'utf8'))).toMatchObject({ language: 'ts', setup: 'npm ci', test: { command: 'npx jest leap.test.ts', format: 'jest' } });
    expect(await readFile(path.join(tsTask, 'repo/babel.config.cjs'), 'utf8')).toContain('@exercism/babel-preset-typescript');
  }, 600_000);

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
