import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePytestReport, pytestRunner } from './pytest.js';

const GOLDEN = fileURLToPath(new URL('../../test/fixtures/reports/pytest/', import.meta.url));
const readGolden = () => readFile(path.join(GOLDEN, 'report/pytest.jsonl'), 'utf8');

describe('pytestRunner.instrument', () => {
  it('adds the plugin, disables autoload and the cache, and keeps going after collection errors', () => {
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-pytest-'));
    const { command, env } = pytestRunner.instrument('python -m pytest -q tests', { reportDir });
    expect(command).toMatch(
      /^python -m pytest -q tests -p bakeoff_pytest_report_[0-9a-f]{16} -p no:cacheprovider --continue-on-collection-errors$/,
    );
    expect(env.PYTEST_DISABLE_PLUGIN_AUTOLOAD).toBe('1');
    expect(env.BAKEOFF_PYTEST_REPORT).toBe(path.join(reportDir, 'pytest.jsonl'));
  });

  it('loads the plugin under a fresh unguessable name from a folder outside the repo', () => {
    const reportDir = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-pytest-'));
    const a = pytestRunner.instrument('pytest', { reportDir });
    const b = pytestRunner.instrument('pytest', { reportDir });
    const name = /-p (bakeoff_pytest_report_\w+)/.exec(a.command)![1]!;
    expect(a.command).not.toBe(b.command);
    expect(path.isAbsolute(a.env.PYTHONPATH ?? '')).toBe(true);
    expect(existsSync(path.join(a.env.PYTHONPATH ?? '', `${name}.py`))).toBe(true);
  });
});

describe('pytestRunner.parse', () => {
  it('keeps the first line of each failure, error and skip reason', async () => {
    const { tests } = parsePytestReport(await readGolden());
    const message = (id: string) => tests.find((t) => t.id === id)?.message;
    expect(message('tests/test_sample.py::test_fails')).toBe('assert (1 + 1) == 3');
    expect(message('tests/test_sample.py::test_setup_error')).toBe('RuntimeError: setup broke');
    expect(message('tests/test_sample.py::test_teardown_error')).toBe('RuntimeError: teardown broke');
    expect(message('tests/test_sample.py::test_xfail')).toBe('xfail: known bug');
    expect(message('tests/test_crash.py')).toBe("ModuleNotFoundError: No module named 'module_that_does_not_exist'");
    expect(message('tests/test_sample.py::test_passes')).toBeUndefined();
  });

  it('reports a problem when the session line is missing because pytest died', async () => {
    const lines = (await readGolden()).trimEnd().split('\n');
    const report = parsePytestReport(lines.slice(0, -1).join('\n'));
    expect(report.tests).toHaveLength(lines.length - 1);
    expect(report.problems).toEqual(['pytest session did not finish (no session line at the end of the report)']);
  });

  it('reports a problem when pytest itself failed', () => {
    const report = parsePytestReport('{"session": "finished", "exitstatus": 3}\n');
    expect(report.problems).toEqual(['pytest ended with exit status 3 (internal error)']);
  });

  it('reports malformed lines as problems and keeps the valid ones', () => {
    const report = parsePytestReport(
      [
        '{"id": "t.py::a", "status": "pass"}',
        'garbage',
        '{"id": "t.py::b", "status": "great"}',
        '{"session": "finished", "exitstatus": 1}',
      ].join('\n'),
    );
    expect(report.tests).toEqual([{ id: 't.py::a', status: 'pass' }]);
    expect(report.problems).toEqual([
      'pytest.jsonl line 2: not JSON: garbage',
      'pytest.jsonl line 3: unexpected record: {"id": "t.py::b", "status": "great"}',
    ]);
  });

  it('counts a test reported twice with different statuses as the worse one, with a problem', () => {
    const report = parsePytestReport(
      [
        '{"id": "t.py::a", "status": "pass"}',
        '{"id": "t.py::a", "status": "fail"}',
        '{"session": "finished", "exitstatus": 1}',
      ].join('\n'),
    );
    expect(report.tests).toEqual([{ id: 't.py::a', status: 'fail' }]);
    expect(report.problems).toHaveLength(1);
  });
});
