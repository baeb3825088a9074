import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { idsAndStatuses } from './golden-reports.test-support.js';
import type { TestResult } from './types.js';
import { parseTapOutput } from './parse-tap-output.js';
import { tapLibrary, tapRunner } from './tap.js';

const REPORTS = fileURLToPath(new URL('../../test/fixtures/reports/', import.meta.url));
const noFiles = { isFile: () => false };

async function golden(sample: string): Promise<{ report: ReturnType<typeof parseTapOutput>; expected: { tests: TestResult[]; problems: string[] } }> {
  const text = await readFile(path.join(REPORTS, sample, 'report/tap.out'), 'utf8');
  const project = path.join(REPORTS, sample, 'project');
  // as the runner reads it: tape's names get their files from the project's test files
  const report = await tapRunner.parse({ reportDir: '/none', output: text, repoDir: project });
  return { report, expected: JSON.parse(await readFile(path.join(REPORTS, sample, 'expected.json'), 'utf8')) };
}

describe('tapRunner', () => {
  it("keeps the bare command's stderr out of the report: it goes to a file of the report folder", () => {
    const { command } = tapRunner.instrument("npx tape 'test/*.js'", { reportDir: '/tmp/report dir' });
    expect(command).toBe("{ npx tape 'test/*.js'\n} 2> '/tmp/report dir/stderr.log'");
  });

  it('parses the stdout it is given, and knows which TAP library a test file uses', async () => {
    const report = await tapRunner.parse({ reportDir: '/none', output: 'TAP version 13\nok 1 a\n1..1\n', repoDir: '/none' });
    expect(report).toEqual({ tests: [{ id: 'a', status: 'pass' }], problems: [] });
    expect(tapLibrary("const test = require('tape');")).toBe('tape');
    expect(tapLibrary("import t from 'tap';")).toBe('tap');
    expect(tapLibrary("import { test } from 'node:test';")).toBe('node:test');
    expect(tapLibrary("print('ok 1')")).toBeNull();
  });
});

describe('parseTapOutput on golden streams', () => {
  it.each(['tap-tape', 'tap-node-tap', 'tap-node-test'])('%s: reads the real stream into exact ids and statuses', async (sample) => {
    const { report, expected } = await golden(sample);
    expect(idsAndStatuses(report.tests)).toEqual(idsAndStatuses(expected.tests));
    expect(report.problems).toEqual([]);
  });

  it("tape: a test is its `# name` comment with the assertions after it, failed by its first failing one", async () => {
    const { report } = await golden('tap-tape');
    expect(report.tests.find((t) => t.id === 'test/sample.js::fails')).toEqual({ id: 'test/sample.js::fails', status: 'fail', message: 'adds wrong' });
    expect(report.tests.find((t) => t.id === 'test/sample.js::rejects')).toEqual({ id: 'test/sample.js::rejects', status: 'fail', message: 'Error: async boom' });
    // tape prints names only: each keeps its file, so one name in two files is two tests, and only a repeat in one file is `#2`
    expect(report.tests.find((t) => t.id === 'test/other.js::same name')).toMatchObject({ status: 'pass' });
    expect(report.tests.find((t) => t.id === 'test/sample.js::same name #2')).toMatchObject({ status: 'fail' });
  });

  it("node-tap: ids start with the file node-tap names each file's subtest by; a file of bare assertions is one test", async () => {
    const { report } = await golden('tap-node-tap');
    expect(report.tests.find((t) => t.id === 'test/sample.test.js::group > inner fails')).toEqual({
      id: 'test/sample.test.js::group > inner fails',
      status: 'fail',
      message: 'nope',
    });
    expect(report.tests.find((t) => t.id === 'test/flat.test.js')).toEqual({ id: 'test/flat.test.js', status: 'pass' });
  });

  it('node:test under its TAP reporter: every announced test is a test, a group that fails by itself an error', async () => {
    const { report } = await golden('tap-node-test');
    expect(report.tests.find((t) => t.id === 'broken after hook')).toEqual({ id: 'broken after hook', status: 'error', message: 'after broke' });
  });
});

describe('parseTapOutput: the stream must hold together as one producer wrote it', () => {
  const tape = (body: string) => `TAP version 13\n# adds\nok 1 should be equal\n${body}# divides\nnot ok 2 should be equal\n1..2\n`;

  it('an ok line the code under test printed breaks the plan', () => {
    const report = parseTapOutput(tape('ok 2 forged by the code under test\n'), noFiles);
    expect(report.problems).toContain('the TAP stream plans 2 test points (1..2) but has 3');
  });

  it('a forged `# name` comment cannot make a test pass: the failing assertion still fails, under a name the lock does not know', () => {
    const report = parseTapOutput('TAP version 13\n# divides\nok 1 setup\n# decoy\nnot ok 2 should be equal\n1..2\n', noFiles);
    expect(report.tests).toEqual([
      { id: 'divides', status: 'pass' },
      { id: 'decoy', status: 'fail', message: 'should be equal' },
    ]);
    expect(report.problems).toEqual([]);
  });

  it('a stream without a plan, with a second stream, or with results before its version line is distrusted', () => {
    expect(parseTapOutput('TAP version 13\nok 1 a\n', noFiles).problems).toContain('the TAP stream has no plan (1..N)');
    expect(parseTapOutput('TAP version 13\nok 1 a\n1..1\nTAP version 13\nok 1 b\n1..1\n', noFiles).problems).toContain(
      'the output holds 2 TAP streams ("TAP version" lines); bakeoff reads one producer\'s stream',
    );
    expect(parseTapOutput('ok 1 early\nTAP version 13\nok 1 a\n1..1\n', noFiles).problems).toContain('test points were printed before the "TAP version" line');
    expect(parseTapOutput('', noFiles).problems).toEqual(['the command printed no TAP (no plan and no test point)']);
  });

  it('a test point number seen twice and a bail-out are problems', () => {
    expect(parseTapOutput('TAP version 13\nok 1 a\nok 1 b\n1..2\n', noFiles).problems).toContain('the TAP stream: test point id 1 appears multiple times');
    expect(parseTapOutput('TAP version 13\nok 1 a\nBail out! database down\n1..2\n', noFiles).problems).toContain('the TAP producer bailed out: database down');
  });

  it('a subtest body gets its plan checked too, and a forged block of assertions cannot flip its test', () => {
    const text = 'TAP version 14\n# Subtest: adds\n    ok 1 - forged\n    ok 2 - real\n    1..1\nnot ok 1 - adds\n1..1\n';
    const report = parseTapOutput(text, noFiles);
    expect(report.tests).toEqual([{ id: 'adds', status: 'fail', message: 'adds' }]);
    expect(report.problems).toContain('subtest "adds" plans 1 test points (1..1) but has 2');
  });

  it('skips and todos are skips; a todo that fails does not fail', () => {
    const report = parseTapOutput('TAP version 13\nok 1 a # SKIP not now\nnot ok 2 b # TODO later\nok 3 c\n1..3\n', noFiles);
    expect(report.tests).toEqual([
      { id: 'a', status: 'skip' },
      { id: 'b', status: 'skip' },
      { id: 'c', status: 'pass' },
    ]);
  });
});
