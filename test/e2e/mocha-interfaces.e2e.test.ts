import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commitAll } from './git-fixtures.js';
import { bakeoff, FIXTURES, tempDir } from './helpers.js';

/*
 * mocha's four interfaces (bdd is every other mocha test's): a bug fix on each becomes a task
 * through `task from-commit`, and admission — gold and noop graded with bakeoff's tripwires in
 * the test files, twice each — admits it with the fix's tests as fail-to-pass. Under qunit the
 * tests belong to the last flat `suite('…')` before them (so do the tripwire groups' copies), and
 * the repository's `--bail` must not cut the run at bakeoff's must-fail tripwire;
 * under exports they are the functions of `module.exports` (so are the wires). Each file has
 * tests with statement bodies, so the fail-to-pass test can be made a tripwire group.
 */

const clamp = (fixed: boolean) => `exports.clamp = (x, lo, hi) => (x < lo ? ${fixed ? 'lo' : 'hi'} : x > hi ? hi : x);\n`;
const HEAD = "'use strict';\nconst assert = require('node:assert');\nconst { clamp } = require('../src/clamp.js');\n";

/** Each interface's test file, before the fix and after (one more test, in the last suite). */
const TESTS: Record<string, (fixed: boolean) => string> = {
  qunit: (fixed) =>
    `${HEAD}\nsuite('clamp');\n\ntest('keeps values inside', function () {\n  const got = clamp(5, 0, 10);\n  assert.strictEqual(got, 5);\n});\n\n` +
    `suite('clamp edges');\n\ntest('keeps the top', function () {\n  const got = clamp(10, 0, 10);\n  assert.strictEqual(got, 10);\n});\n` +
    (fixed ? `\ntest('raises values below', function () {\n  const got = clamp(-3, 0, 10);\n  assert.strictEqual(got, 0);\n});\n` : ''),
  tdd: (fixed) =>
    `${HEAD}\nsuite('clamp', function () {\n  test('keeps values inside', function () {\n    const got = clamp(5, 0, 10);\n    assert.strictEqual(got, 5);\n  });\n` +
    (fixed ? `  test('raises values below', function () {\n    const got = clamp(-3, 0, 10);\n    assert.strictEqual(got, 0);\n  });\n` : '') +
    '});\n',
  exports: (fixed) =>
    `${HEAD}\nmodule.exports = {\n  clamp: {\n    'keeps values inside': function () {\n      assert.strictEqual(clamp(5, 0, 10), 5);\n    },\n` +
    (fixed ? `    'raises values below': function () {\n      assert.strictEqual(clamp(-3, 0, 10), 0);\n    },\n` : '') +
    '  },\n};\n',
};

/** The fail-to-pass and pass-to-pass ids admission must find, by interface. */
const EXPECTED: Record<string, { failToPass: string[]; passToPass: string[] }> = {
  qunit: { failToPass: ['test/clamp.js::clamp edges > raises values below'], passToPass: ['test/clamp.js::clamp > keeps values inside', 'test/clamp.js::clamp edges > keeps the top'] },
  tdd: { failToPass: ['test/clamp.js::clamp > raises values below'], passToPass: ['test/clamp.js::clamp > keeps values inside'] },
  exports: { failToPass: ['test/clamp.js::clamp > raises values below'], passToPass: ['test/clamp.js::clamp > keeps values inside'] },
};

describe("mocha's interfaces: a task on each is admitted, with the tripwires recognised", () => {
  let suite: string;
  const made = new Map<string, { exitCode: number | undefined; stdout: string; stderr: string }>();

  beforeAll(async () => {
    suite = path.join(await tempDir('bakeoff-mocha-ui-'), 'suite');
    const npm = path.join(FIXTURES, 'suites/runners/tasks/mocha-slugify/repo');
    const base = { 'package.json': await readFile(path.join(npm, 'package.json'), 'utf8'), 'package-lock.json': await readFile(path.join(npm, 'package-lock.json'), 'utf8') };
    for (const ui of Object.keys(TESTS)) {
      const repo = await tempDir(`bakeoff-mocha-${ui}-`);
      // qunit's interface as the command line gives it, with --bail as jshttp's packages do (bakeoff runs on past failures); the others from .mocharc.json
      const config: Record<string, string> = ui === 'qunit' ? {} : { '.mocharc.json': JSON.stringify({ ui }) + '\n' };
      await commitAll(repo, [
        { message: 'clamp', files: { ...base, ...config, 'src/clamp.js': clamp(false), 'test/clamp.js': TESTS[ui]!(false) } },
        { message: 'Fix clamp() below the range', files: { 'src/clamp.js': clamp(true), 'test/clamp.js': TESTS[ui]!(true) } },
      ]);
      const test = ui === 'qunit' ? ['--test', 'npx mocha --bail --check-leaks --ui qunit'] : [];
      made.set(ui, await bakeoff(['task', 'from-commit', repo, 'HEAD', '--suite', suite, '--id', `clamp-${ui}`, ...test, '--json']));
    }
  }, 600_000);

  for (const ui of Object.keys(TESTS)) {
    it(`admits the ${ui} task: gold solves and noop fails with the tripwires in place, the fix's test fail-to-pass`, async () => {
      const result = made.get(ui)!;
      expect(result.exitCode, result.stderr).toBe(0);
      const json = JSON.parse(result.stdout) as { tasks: { id: string; admitted: boolean; failToPass: number; passToPass: number }[] };
      expect(json.tasks.find((t) => t.id === `clamp-${ui}`), result.stderr).toMatchObject({ admitted: true, failToPass: 1, passToPass: EXPECTED[ui]!.passToPass.length });
      const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { orders: { failToPass: string[]; passToPass: string[] }[] }> };
      const order = lock.tasks[`clamp-${ui}`]!.orders[0]!;
      expect(order.failToPass).toEqual(EXPECTED[ui]!.failToPass);
      expect([...order.passToPass].sort()).toEqual([...EXPECTED[ui]!.passToPass].sort());
    });
  }
});
