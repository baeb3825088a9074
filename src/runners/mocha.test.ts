import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../util/temp-dirs.test-support.js';
import { parseGolden } from './golden-reports.test-support.js';
import { mochaRunner, parseMochaReport } from './mocha.js';

const goldenReport = () => parseGolden(mochaRunner, 'mocha');
const tempDir = useTempDirs();

describe('mochaRunner', () => {
  it('adds --no-bail and its own reporter (copied into the report folder) and report file, quoted, after the bare command, and records the repo root first', async () => {
    const reportDir = path.join(await tempDir('bakeoff-mocha-'), 'report dir');
    await mkdir(reportDir);
    const { command } = mochaRunner.instrument('npx mocha', { reportDir });
    expect(command).toBe(
      `{ pwd; pwd -P; } > '${reportDir}/root.txt'; ` +
        `npx mocha --no-bail --reporter '${reportDir}/mocha-reporter.cjs' --reporter-option 'output=${reportDir}/mocha.jsonl'`,
    );
    expect(await readFile(path.join(reportDir, 'mocha-reporter.cjs'), 'utf8')).toContain('BakeoffMochaReporter');
  });

  it('numbers a second test of the same title in the same file instead of merging it', async () => {
    const { tests } = await goldenReport();
    expect(tests.filter((t) => t.id.startsWith('test/sample.js::twice > same title'))).toEqual([
      { id: 'test/sample.js::twice > same title', status: 'pass' },
      { id: 'test/sample.js::twice > same title #2', status: 'fail', message: 'the second one fails' },
    ]);
  });

  it('reports a failed hook as an error under its own title, with its message', async () => {
    const { tests } = await goldenReport();
    expect(tests.find((t) => t.id === 'test/sample.js::broken before hook > "before all" hook for "never runs"')).toEqual({
      id: 'test/sample.js::broken before hook > "before all" hook for "never runs"',
      status: 'error',
      message: 'before broke',
    });
  });

  it('distrusts a report without its end line: mocha died before the run was over', () => {
    const line = JSON.stringify({ event: 'test', file: '/r/test/a.js', path: ['a'], status: 'pass' });
    expect(parseMochaReport(line + '\n', ['/r']).problems).toEqual(['mocha run did not finish (no end line at the end of the report)']);
  });

  it("distrusts a report whose lines disagree with the reporter's own counts", () => {
    const text = [
      JSON.stringify({ event: 'test', file: '/r/test/a.js', path: ['a'], status: 'pass' }),
      JSON.stringify({ event: 'end', tests: 1, passes: 0, failures: 1, pending: 0 }),
    ].join('\n');
    expect(parseMochaReport(text, ['/r']).problems).toHaveLength(1);
  });
});
