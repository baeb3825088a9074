import { describe, expect, it } from 'vitest';
import type { TestRunner } from './types.js';
import { parseGolden } from './golden-reports.test-support.js';
import { jestRunner } from './jest.js';
import { vitestRunner } from './vitest.js';

// jest and vitest write the same JSON report (jest-json-report.ts reads both); each is checked
// against its own golden report, captured from the real tool.
const cases: { name: string; runner: TestRunner; bare: string; flags: string; crashId: string }[] = [
  { name: 'jest', runner: jestRunner, bare: 'npx jest', flags: "--ci --json '--outputFile=/tmp/report dir/jest.json'", crashId: '__tests__/crash.js' },
  {
    name: 'vitest',
    runner: vitestRunner,
    bare: 'npx vitest run',
    flags: "--reporter=default --reporter=json '--outputFile=/tmp/report dir/vitest.json'",
    crashId: 'checks/crash.check.js',
  },
];

describe.each(cases)('$name runner', ({ name, runner, bare, flags, crashId }) => {
  it('adds the JSON report, quoted, after the bare command and records the repo root first', () => {
    const { command } = runner.instrument(bare, { reportDir: '/tmp/report dir' });
    expect(command).toBe(`{ pwd; pwd -P; } > '/tmp/report dir/root.txt'; ${bare} ${flags}`);
  });

  it('names a crashed test file by its path, with the error as message', async () => {
    const { tests } = await parseGolden(runner, name);
    expect(tests.find((t) => t.id === crashId)).toMatchObject({ status: 'error', message: expect.stringContaining('crash while loading the test file') });
  });
});
