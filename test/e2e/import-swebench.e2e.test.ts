import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bakeoff } from './helpers.js';
import { commitAll, diffOf, git, tempDir, writeFiles } from './git-fixtures.js';

/*
 * `bakeoff import swebench` on a small pure-Python repository the test builds with the shape of
 * the real SWE-bench Lite instance marshmallow-code__marshmallow-1359 (a DateTime field bound
 * inside a List reads `opts` from its parent field instead of the root schema): a clone under
 * --repos named <owner>__<name>, base_commit, patch and test_patch split from the fix commit,
 * FAIL_TO_PASS / PASS_TO_PASS as the JSON strings of the HF datasets. The code is the test's
 * own, not marshmallow's. Admission must find the instance's lists; a wrong list is reported
 * test by test; runners bakeoff cannot report on are refused naming the log parser.
 */

const FIELDS_BEFORE = `class Schema:
    class Meta:
        datetimeformat = None

    def __init__(self):
        self.opts = self.Meta
        self.fields = {}
        for name in dir(type(self)):
            value = getattr(type(self), name)
            if isinstance(value, Field):
                value.bind(name, self)
                self.fields[name] = value


class Field:
    def bind(self, name, parent):
        self.name = name
        self.parent = parent

    @property
    def root(self):
        node = self
        while isinstance(node, Field):
            node = node.parent
        return node


class List(Field):
    def __init__(self, inner):
        self.inner = inner

    def bind(self, name, parent):
        super().bind(name, parent)
        self.inner.bind(name, self)


class DateTime(Field):
    def __init__(self, format=None):
        self.format = format

    def bind(self, name, parent):
        super().bind(name, parent)
        self.format = self.format or getattr(parent.opts, "datetimeformat", None) or "iso"
`;
const FIELDS_FIX = FIELDS_BEFORE.replace('getattr(parent.opts, "datetimeformat", None)', 'getattr(self.root.opts, "datetimeformat", None)');
const TESTS_BEFORE = `import pytest
from fieldkit.fields import DateTime, List, Schema


def test_datetime_takes_schema_format():
    class S(Schema):
        class Meta:
            datetimeformat = "rfc"
        when = DateTime()
    assert S().fields["when"].format == "rfc"


@pytest.mark.parametrize("fmt", ["iso", "rfc 822"])
def test_explicit_format_wins(fmt):
    class S(Schema):
        when = DateTime(format=fmt)
    assert S().fields["when"].format == fmt
`;
const TESTS_FIX = `${TESTS_BEFORE}

def test_datetime_list_inner_format():
    class S(Schema):
        class Meta:
            datetimeformat = "rfc"
        times = List(DateTime())
    assert S().fields["times"].inner.format == "rfc"
`;
const PROBLEM = 'DateTime fields cannot be used as inner field for List\n\n```python\nclass S(Schema):\n    times = List(DateTime())\n```\nraises `AttributeError: \'List\' object has no attribute \'opts\'`.\n';

describe('bakeoff import swebench', () => {
  let work: string;
  let instance: Record<string, unknown>;

  beforeAll(async () => {
    work = await tempDir('bakeoff-swebench-');
    const clone = path.join(work, 'repos', 'fieldkit-dev__fieldkit');
    await mkdir(clone, { recursive: true });
    const [base, fix] = await commitAll(clone, [
      { message: 'fields', files: { 'pyproject.toml': '[project]\nname = "fieldkit"\n', 'fieldkit/__init__.py': '', 'fieldkit/fields.py': FIELDS_BEFORE, 'tests/test_fields.py': TESTS_BEFORE } },
      { message: 'Fix #1357: inner DateTime reads the root schema options', files: { 'fieldkit/fields.py': FIELDS_FIX, 'tests/test_fields.py': TESTS_FIX } },
    ]);
    instance = {
      repo: 'fieldkit-dev/fieldkit',
      instance_id: 'fieldkit-dev__fieldkit-1359',
      base_commit: base,
      patch: await diffOf(clone, base!, fix!, ['fieldkit/fields.py']),
      test_patch: await diffOf(clone, base!, fix!, ['tests/test_fields.py']),
      problem_statement: PROBLEM,
      version: '3.0',
      FAIL_TO_PASS: JSON.stringify(['tests/test_fields.py::test_datetime_list_inner_format']),
      // as SWE-bench's parse_log_pytest reads `PASSED <id>` lines: cut at the space inside the parameter
      PASS_TO_PASS: JSON.stringify(['tests/test_fields.py::test_datetime_takes_schema_format', 'tests/test_fields.py::test_explicit_format_wins[iso]', 'tests/test_fields.py::test_explicit_format_wins[rfc']),
    };
    const wrong = { ...instance, instance_id: 'fieldkit-dev__fieldkit-9999', FAIL_TO_PASS: ['tests/test_fields.py::test_datetime_takes_schema_format'], PASS_TO_PASS: [] };
    await writeFile(path.join(work, 'instances.jsonl'), [instance, wrong].map((i) => JSON.stringify(i)).join('\n') + '\n');
  });

  it('writes each instance as a task and admits the one whose lists bakeoff finds, reporting the other test by test', async () => {
    const r = await bakeoff(['import', 'swebench', 'instances.jsonl', '--repos', 'repos', '--suite', 'suite'], { cwd: work });
    expect(r.stderr + r.stdout).toContain('prompt.md is the instance\'s problem_statement: the issue as its author wrote it, not a draft');
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toMatch(/✓ fieldkit-dev__fieldkit-1359 {2}fail-to-pass 1 {2}pass-to-pass 3/);
    expect(r.stdout).toContain('✗ fieldkit-dev__fieldkit-9999');
    expect(r.stdout).toContain("tests/test_fields.py::test_datetime_takes_schema_format: the instance says fail-to-pass; bakeoff found pass-to-pass");
    expect(r.stdout).toContain('tests/test_fields.py::test_datetime_list_inner_format: bakeoff found fail-to-pass; the instance lists it in neither set');

    const task = path.join(work, 'suite/tasks/fieldkit-dev__fieldkit-1359');
    expect(await readFile(path.join(task, 'orders/1/prompt.md'), 'utf8')).toBe(PROBLEM);
    expect(await readFile(path.join(task, 'orders/1/hidden/tests/test_fields.py'), 'utf8')).toBe(TESTS_FIX);
    expect(await readFile(path.join(task, 'repo/tests/test_fields.py'), 'utf8')).toBe(TESTS_BEFORE);
    expect(await readFile(path.join(task, 'orders/1/gold.patch'), 'utf8')).toBe(instance['patch']);
    expect(existsSync(path.join(task, 'repo/.git'))).toBe(false);
    const manifest = parseYaml(await readFile(path.join(task, 'task.yaml'), 'utf8'));
    expect(manifest.test).toEqual({ command: 'python -m pytest -q tests/test_fields.py', format: 'pytest' });
    expect(manifest.origin).toMatchObject({ kind: 'swebench', id: 'fieldkit-dev__fieldkit-1359', repo: 'github.com/fieldkit-dev/fieldkit', commit: instance['base_commit'] });
    expect(manifest.origin.expected.failToPass).toEqual(['tests/test_fields.py::test_datetime_list_inner_format']);
  });

  it('reads a v5 task repo (lists as lists): imports the pytest task and refuses the one whose log parser bakeoff has no runner for, naming it', async () => {
    const v5 = path.join(work, 'v5');
    const task = (id: string, parser: string, tests: object) => ({
      [`tasks/${id}/task.yaml`]: `instance_id: ${id}\nrepo: ${id.startsWith('django') ? 'django/django' : 'fieldkit-dev/fieldkit'}\nversion: "4.0"\nbase_commit: ${String(instance['base_commit'])}\nsplit: test\nimage: x\nlog_parser: ${parser}\neval_type: pass_and_fail\n`,
      [`tasks/${id}/tests.json`]: JSON.stringify(tests),
      [`tasks/${id}/problem_statement.md`]: PROBLEM,
      [`tasks/${id}/gold.patch`]: String(instance['patch']),
      [`tasks/${id}/test.patch`]: String(instance['test_patch']),
    });
    await writeFiles(v5, {
      'sweb.yaml': 'datasets: [mine]\nsplits: [test]\n',
      ...task('django__django-1', 'django', { FAIL_TO_PASS: ['test_a (m.T)'], PASS_TO_PASS: [] }),
      ...task('fieldkit-dev__fieldkit-7', 'pytest', { FAIL_TO_PASS: JSON.parse(String(instance['FAIL_TO_PASS'])), PASS_TO_PASS: JSON.parse(String(instance['PASS_TO_PASS'])) }),
    });
    const r = await bakeoff(['import', 'swebench', 'v5', '--repos', 'repos', '--suite', 'suite-v5'], { cwd: work });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('refused django__django-1');
    expect(r.stdout).toContain('log_parser parse_log_django is not supported: bakeoff runs and reports on pytest');
    expect(r.stdout).toMatch(/✓ fieldkit-dev__fieldkit-7 {2}fail-to-pass 1 {2}pass-to-pass 3/);
    expect(existsSync(path.join(work, 'suite-v5/tasks/django__django-1'))).toBe(false);
  });

  it("maps parse_log_tap to the tap format (ids as it reads TAP test points: `- name`), and refuses a test_patch that deletes a file", async () => {
    // a JavaScript repository tested with node:test, whose TAP reporter SWE-bench's tap parser reads
    const clone = path.join(work, 'repos', 'clampy__clampy');
    await mkdir(clone, { recursive: true });
    const before = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { clamp } from '../src/clamp.js';\ntest('keeps values inside', () => assert.equal(clamp(5, 0, 10), 5));\n";
    const [base, fix] = await commitAll(clone, [
      { message: 'clamp', files: { 'package.json': '{ "name": "clampy", "type": "module" }\n', 'src/clamp.js': 'export const clamp = (x, lo, hi) => (x < lo ? hi : x > hi ? hi : x);\n', 'test/clamp.test.js': before } },
      {
        message: 'Fix clamp() below the range',
        files: { 'src/clamp.js': 'export const clamp = (x, lo, hi) => (x < lo ? lo : x > hi ? hi : x);\n', 'test/clamp.test.js': `${before}test('raises values below', () => assert.equal(clamp(-3, 0, 10), 0));\n` },
      },
    ]);
    await git(clone, 'checkout', '-q', '-b', 'drop', base!);
    await git(clone, 'rm', '-q', 'test/clamp.test.js');
    await git(clone, 'commit', '-qm', 'drop the test');
    const drop = (await git(clone, 'rev-parse', 'HEAD')).stdout.trim();
    const common = { repo: 'clampy/clampy', base_commit: base, patch: await diffOf(clone, base!, fix!, ['src/clamp.js']), problem_statement: 'clamp(-3, 0, 10) gives 10.\n', log_parser: 'parse_log_tap' };
    const instances = [
      { ...common, instance_id: 'clampy__clampy-2', test_patch: await diffOf(clone, base!, fix!, ['test/clamp.test.js']), FAIL_TO_PASS: ['- raises values below'], PASS_TO_PASS: ['- keeps values inside'] },
      { ...common, instance_id: 'clampy__clampy-3', test_patch: await diffOf(clone, base!, drop, ['test/clamp.test.js']), FAIL_TO_PASS: ['- raises values below'], PASS_TO_PASS: [] },
    ];
    await writeFile(path.join(work, 'tap.jsonl'), instances.map((i) => JSON.stringify(i)).join('\n') + '\n');
    const r = await bakeoff(['import', 'swebench', 'tap.jsonl', '--repos', 'repos', '--suite', 'suite-tap'], { cwd: work });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ clampy__clampy-2 {2}fail-to-pass 1 {2}pass-to-pass 1/);
    expect(r.stdout).toMatch(/refused clampy__clampy-3: \S*tap\.jsonl:2: instance clampy__clampy-3: test_patch deletes test\/clamp\.test\.js; hidden tests can add and change files, not remove them/);
    expect(existsSync(path.join(work, 'suite-tap/tasks/clampy__clampy-3'))).toBe(false);
    const manifest = parseYaml(await readFile(path.join(work, 'suite-tap/tasks/clampy__clampy-2/task.yaml'), 'utf8'));
    expect(manifest.test).toEqual({ command: 'node --test --test-reporter=tap test/clamp.test.js', format: 'tap' });
  });

  it('names the file, line and field of a malformed instance (exit 2)', async () => {
    await writeFile(path.join(work, 'bad.jsonl'), JSON.stringify({ ...instance, FAIL_TO_PASS: 'not json' }) + '\n');
    const r = await bakeoff(['import', 'swebench', 'bad.jsonl', '--repos', 'repos', '--suite', 'suite-bad'], { cwd: work });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bad.jsonl:1: FAIL_TO_PASS: expected array, received "not json"');
  });
});
