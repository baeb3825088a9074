import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TestResult } from '../types.js';
import { jestRunner } from './jest.js';

const GOLDEN = fileURLToPath(new URL('../../../test/fixtures/reports/jest/', import.meta.url));
const sorted = (tests: readonly TestResult[]) =>
  tests.map(({ id, status }) => ({ id, status })).sort((a, b) => a.id.localeCompare(b.id));
const goldenReport = (repoDir = '/elsewhere') =>
  jestRunner.parse({ reportDir: path.join(GOLDEN, 'report'), output: '', repoDir });

describe('jestRunner', () => {
  it('adds the JSON report, quoted, after the bare command and records the repo root first', () => {
    const { command } = jestRunner.instrument('npx jest', { reportDir: '/tmp/report dir' });
    expect(command).toBe(
      "{ pwd; pwd -P; } > '/tmp/report dir/root.txt'; " +
        "npx jest --ci --json '--outputFile=/tmp/report dir/jest.json'",
    );
  });

  it('reads the golden report into exact ids and statuses, relative to the recorded repo root', async () => {
    const expected = JSON.parse(await readFile(path.join(GOLDEN, 'expected.json'), 'utf8'));
    const report = await goldenReport();
    expect(sorted(report.tests)).toEqual(sorted(expected.tests));
    expect(report.problems).toEqual([]);
  });

  it('names a crashed test file by its path, with the error as message', async () => {
    const { tests } = await goldenReport();
    const crash = tests.find((t) => t.id === '__tests__/crash.js');
    expect(crash).toMatchObject({ status: 'error', message: expect.stringContaining('crash while loading the test file') });
  });

  it('reports a problem when the report file is missing', async () => {
    const report = await jestRunner.parse({ reportDir: '/nonexistent', output: '', repoDir: '/nonexistent' });
    expect(report).toEqual({ tests: [], problems: ['report jest.json is missing'] });
  });
});
