import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commitAll } from './git-fixtures.js';
import { bakeoff, tempDir } from './helpers.js';

/*
 * The draft prompt `task from-commit` writes for a commit whose message says nothing about the
 * bug ("Tidy up", with the trailers forges add): after admission it names the tests that fail at
 * the parent and how each failed there (an assertion's text, an exception), as an issue would,
 * without a line of the fix's code; it is still a draft, and the lock belongs to the suite as
 * it is now (the second validation kept the admission: no check reads a prompt).
 */

const BEFORE = {
  'package.json': '{ "name": "clampy", "type": "module", "scripts": { "test": "node --test test/" } }\n',
  'src/clamp.js': 'export function clamp(x, lo, hi) {\n  if (x < lo) return lower;\n  if (x > hi) return lo;\n  return x;\n}\n',
  'test/clamp.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/clamp.js';\ntest('keeps values inside', () => {\n  assert.equal(clamp(5, 0, 10), 5);\n});\n",
};
const FIX_CODE = 'export function clamp(x, lo, hi) {\n  if (x < lo) return Math.max(lo, x);\n  if (x > hi) return Math.min(hi, x);\n  return x;\n}\n';
const FIX_TESTS =
  BEFORE['test/clamp.test.js'] +
  "test('raises values below the range', () => {\n  assert.equal(clamp(-3, 0, 10), 0);\n});\n" +
  "test('lowers values above the range', () => {\n  assert.equal(clamp(12, 0, 10), 10);\n});\n";
const MESSAGE = 'chore: tidy up (#7)\n\nSigned-off-by: A Person <a@example.com>\nCo-authored-by: B Person <b@example.com>\n';

describe('task from-commit: a draft prompt a writer can start from', () => {
  let suite: string;
  let made: { exitCode: number | undefined; stdout: string; stderr: string };

  beforeAll(async () => {
    const repo = await tempDir('bakeoff-draft-repo-');
    await commitAll(repo, [
      { message: 'clamp', files: BEFORE },
      { message: MESSAGE, files: { 'src/clamp.js': FIX_CODE, 'test/clamp.test.js': FIX_TESTS } },
    ]);
    suite = path.join(await tempDir('bakeoff-draft-suite-'), 'suite');
    made = await bakeoff(['task', 'from-commit', repo, 'HEAD', '--suite', suite, '--id', 'clamp', '--json']);
  }, 600_000);

  it('names the failing tests and their failure messages at the parent, without the trailers or the fix', async () => {
    expect(made.exitCode, made.stderr).toBe(0);
    const prompt = await readFile(path.join(suite, 'tasks/clamp/orders/1/prompt.md'), 'utf8');
    expect(prompt.startsWith('<!-- bakeoff: DRAFT prompt')).toBe(true);
    expect(prompt).toContain('\ntidy up\n');
    expect(prompt).not.toMatch(/Signed-off-by|Co-authored-by|chore:|#7/);
    // the exception the parent throws, and the assertion the other test fails with
    expect(prompt).toContain('- `test/clamp.test.js::raises values below the range` fails: `ReferenceError: lower is not defined`');
    expect(prompt).toContain('- `test/clamp.test.js::lowers values above the range` fails: `Expected values to be strictly equal: 0 !== 10`');
    expect(prompt).not.toContain('keeps values inside'); // passes at the parent: not part of the problem
    for (const line of FIX_CODE.split('\n').filter((l) => /Math\./.test(l))) expect(prompt).not.toContain(line.trim());
  });

  it('leaves the lock and the admission true to the suite as it is now', async () => {
    const json = JSON.parse(made.stdout) as { tasks: { id: string; admitted: boolean; failToPass: number }[]; suite: { hash: string }; lockComparison: { status: string } };
    expect(json.tasks).toEqual([expect.objectContaining({ id: 'clamp', admitted: true, failToPass: 2 })]);
    expect(json.lockComparison.status).toBe('created');
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { suite: { hash: string } };
    expect(lock.suite.hash).toBe(json.suite.hash);
    // the prompt as it is now is what the lock was written for, and its admission is kept
    const check = await bakeoff(['validate', suite, '--check', '--json']);
    expect(check.exitCode, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ suite: { hash: json.suite.hash }, keptVerdicts: ['clamp'], lockComparison: { status: 'unchanged' } });
    expect(check.stderr).toContain('is a draft bakeoff wrote');
  });
});
