import { describe, expect, it } from 'vitest';
import { expectedOf, idsAndStatuses, parseGolden } from './golden-reports.test-support.js';
import { getTestRunner } from './registry.js';

/*
 * What every runner whose reporter writes a report file must do, each against the golden report
 * captured from its real tool (test/fixtures/reports/<format>/): read it into the exact ids and
 * statuses of expected.json, from a repo root elsewhere (the report records its own), and name a
 * report that was never written.
 */

describe.each([
  { format: 'pytest', missing: 'pytest report pytest.jsonl is missing' },
  { format: 'node-test', missing: 'node:test report node-test.jsonl is missing' },
  { format: 'mocha', missing: 'mocha report mocha.jsonl is missing' },
  { format: 'jest', missing: 'report jest.json is missing' },
  { format: 'vitest', missing: 'report vitest.json is missing' },
] as const)('the $format runner', ({ format, missing }) => {
  const runner = getTestRunner(format);

  it('reads the golden report into exact ids and statuses, relative to the recorded repo root', async () => {
    const report = await parseGolden(runner, format);
    expect(idsAndStatuses(report.tests)).toEqual(idsAndStatuses((await expectedOf(format)).tests));
    expect(report.problems).toEqual([]);
  });

  it('reports a problem naming the report file when the reporter wrote nothing', async () => {
    const report = await runner.parse({ reportDir: '/nonexistent', output: '', repoDir: '/nonexistent' });
    expect(report).toEqual({ tests: [], problems: [missing] });
  });
});
