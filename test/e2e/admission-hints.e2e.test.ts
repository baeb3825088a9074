import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bakeoff, tempDir } from './helpers.js';

type Verdict = { id: string; admitted: boolean; reason?: string; logs?: string[] };

async function write(root: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
}

const GOLD = `diff --git a/src/one.mjs b/src/one.mjs
--- a/src/one.mjs
+++ b/src/one.mjs
@@ -1 +1 @@
-export const one = () => 0;
+export const one = () => 1;
`;

function nodeTask(command: string, hidden: string): Record<string, string> {
  return {
    'task.yaml': `schemaVersion: 1\nkind: bug\nlanguage: js\nsummary: one() returns 0.\nsetup: null\ntest:\n  command: ${command}\n  format: node-test\nprotectedPaths: []\n`,
    'repo/package.json': '{ "name": "one", "private": true, "type": "module" }\n',
    'repo/src/one.mjs': 'export const one = () => 0;\n',
    'repo/test/keep.test.mjs': "import { test } from 'node:test';\ntest('runs', () => {});\n",
    'orders/1/prompt.md': 'one() should return 1.\n',
    'orders/1/gold.patch': GOLD,
    'orders/1/hidden/test/one.hidden.test.mjs': hidden,
  };
}

const HEAD = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { one } from '../src/one.mjs';\n";

describe('bakeoff validate explains rejections and keeps their logs', () => {
  let verdicts: Map<string, Verdict>;
  let suite: string;
  let stdout: string;

  beforeAll(async () => {
    const root = await tempDir();
    suite = path.join(root, 'hints');
    await write(suite, { 'suite.yaml': 'schemaVersion: 1\nid: hints\ndescription: Test fixture.\ncontrols:\n  runsPerTask: 1\n  testWallClockSec: 60\n' });
    await write(path.join(suite, 'tasks/no-results'), nodeTask('echo nothing-collected-here', HEAD + "test('one', () => assert.equal(one(), 1));\n"));
    // Admission runs each stage in a workspace whose path names the stage (…/1-gold-1/w/ws): this
    // test passes in gold-1 and gold-2 only, a deterministic stand-in for a test that fails by chance
    // in the shifted-clock run and in the third gold run.
    await write(path.join(suite, 'tasks/flaky-third'), nodeTask('node --test test/', HEAD + "test('one', () => assert.equal(one(), 1));\ntest('by chance', () => assert.match(process.cwd(), /\\/1-gold-[12]\\//));\n"));
    // a title built from the checkout's path, which differs for every stage: admitted, its id reads <repo>
    await write(path.join(suite, 'tasks/cwd-title'), nodeTask('node --test test/', HEAD + "test(`one() is 1 in ${process.cwd()}`, () => assert.equal(one(), 1));\n"));
    // test.files and the command name test/unit only: the hidden file is neither collected nor tripwired
    const uncollected = nodeTask('node --test test/unit/', HEAD + "test('one', () => assert.equal(one(), 1));\n");
    uncollected['task.yaml'] = uncollected['task.yaml']!.replace('format: node-test', "format: node-test\n  files: ['test/unit/**']");
    uncollected['repo/test/unit/keep.test.mjs'] = uncollected['repo/test/keep.test.mjs']!;
    await write(path.join(suite, 'tasks/uncollected'), uncollected);
    const r = await bakeoff(['validate', suite, '--json'], { env: { BAKEOFF_CACHE_DIR: path.join(root, 'cache') } });
    stdout = r.stdout;
    expect(r.exitCode, r.stderr).toBe(1);
    verdicts = new Map((JSON.parse(r.stdout) as { tasks: Verdict[] }).tasks.map((t) => [t.id, t]));
  }, 300_000);

  it('keeps the logs of a rejected task where validate prints them, with no machine path in the lock or TASKS.md', async () => {
    const v = verdicts.get('no-results')!;
    expect(v.reason).toMatch(/no per-test results on the unchanged repo .*\(see the baseline log\)/);
    expect(v.logs?.length).toBeGreaterThan(0);
    expect(await readFile(v.logs![0]!, 'utf8')).toContain('nothing-collected-here');
    const lock = await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8');
    const tasksMd = await readFile(path.join(suite, 'TASKS.md'), 'utf8');
    expect(lock).not.toContain('/tmp');
    expect(tasksMd).not.toContain('/tmp');
    expect(stdout).toContain(v.logs![0]!);
  });

  it('admits a test whose title carries the checkout path, with <repo> in its id and no scratch path in the lock', async () => {
    expect(verdicts.get('cwd-title')).toMatchObject({ admitted: true, failToPass: 1 });
    const lock = JSON.parse(await readFile(path.join(suite, 'bakeoff.lock.json'), 'utf8')) as { tasks: Record<string, { orders: { failToPass: string[] }[] }> };
    expect(lock.tasks['cwd-title']!.orders[0]!.failToPass).toEqual(['test/one.hidden.test.mjs::one() is 1 in <repo>']);
  });

  it('calls a test that also changes in a third unshifted gold run flaky, not bound to the date', () => {
    expect(verdicts.get('flaky-third')?.reason).toMatch(/^flaky: the first and a third gold run disagree on .*by chance \(pass, then fail\)/);
  });

  it('names the hidden file no result came from and the test command when fail-to-pass is empty', () => {
    expect(verdicts.get('uncollected')?.reason).toBe(
      'no test fails on the unchanged repo (the fail-to-pass set is empty); no test result came from the hidden file orders/1/hidden/test/one.hidden.test.mjs: does the test command `node --test test/unit/` collect it?',
    );
  });
});
