import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../util/temp-dirs.test-support.js';
import { parseGolden, REPORTS } from './golden-reports.test-support.js';
import { nodeTestRunner, parseNodeTestReport } from './node-test.js';
import { resolveReportersDir } from './reporters-dir.js';

const goldenReport = () => parseGolden(nodeTestRunner, 'node-test');

const tempDir = useTempDirs();

describe('nodeTestRunner.instrument', () => {
  it('adds the reporter to NODE_OPTIONS, keeping the options already there', async () => {
    const dir = await tempDir('bakeoff-node-test-');
    const reportDir = path.join(dir, 'report dir');
    await mkdir(reportDir);
    const { command, env } = nodeTestRunner.instrument('printf %s "$NODE_OPTIONS"', { reportDir });
    const run = spawnSync('sh', ['-c', command], {
      cwd: dir,
      env: { ...process.env, ...env, NODE_OPTIONS: '--max-old-space-size=200' },
      encoding: 'utf8',
    });
    expect(run.stdout).toBe(
      '--max-old-space-size=200 --test-reporter=spec --test-reporter-destination=stdout ' +
        `"--test-reporter=${reportDir}/node-test-reporter.mjs" "--test-reporter-destination=${reportDir}/node-test.jsonl"`,
    );
    // the reporter is a copy inside the report folder, the one folder a sandboxed run is sure to see
    expect(readFileSync(path.join(reportDir, 'node-test-reporter.mjs'), 'utf8')).toBe(
      readFileSync(path.join(resolveReportersDir(), 'node-test-reporter.mjs'), 'utf8'),
    );
  });

  it('keeps the reporter when the command sets NODE_OPTIONS itself', async () => {
    const dir = await tempDir('bakeoff-node-test-');
    const { command, env } = nodeTestRunner.instrument(`NODE_OPTIONS=--no-warnings sh -c 'printf %s "$NODE_OPTIONS"'`, { reportDir: dir });
    const run = spawnSync('sh', ['-c', command], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(run.stdout).toMatch(/^--test-reporter=spec .*--test-reporter-destination=.*node-test\.jsonl"? --no-warnings$/);
  });

  it('records the repo root the command ran from', async () => {
    const dir = await tempDir('bakeoff-node-test-');
    const { command, env } = nodeTestRunner.instrument('true', { reportDir: dir });
    spawnSync('sh', ['-c', command], { cwd: dir, env: { ...process.env, ...env } });
    expect((await readFile(path.join(dir, 'root.txt'), 'utf8')).split('\n')[0]).toBe(dir);
  });
});

describe('nodeTestRunner.parse', () => {
  it('reports leaf tests, and a suite only when its own hook failed', async () => {
    const ids = (await goldenReport()).tests.map((t) => t.id);
    expect(ids).not.toContain('test/sample.mjs::group');
    expect(ids).not.toContain('test/sample.mjs::parent with subtests');
    const suite = (await goldenReport()).tests.find((t) => t.id === 'test/sample.mjs::broken after hook');
    expect(suite).toEqual({ id: 'test/sample.mjs::broken after hook', status: 'error', message: 'after broke' });
  });

  it('reports a file that crashed as one error named by the file', async () => {
    const crash = (await goldenReport()).tests.find((t) => t.id === 'test/crash.mjs');
    expect(crash).toEqual({ id: 'test/crash.mjs', status: 'error', message: 'Error: crash while loading the test file' });
  });

  it('reports a problem when the run did not reach its end line', async () => {
    const text = await readFile(path.join(REPORTS, 'node-test/report/node-test.jsonl'), 'utf8');
    const withoutEnd = text.trimEnd().split('\n').slice(0, -1).join('\n');
    expect(parseNodeTestReport(withoutEnd, []).problems).toEqual([
      'node:test run did not finish (no end line at the end of the report)',
    ]);
  });

  it('makes file paths relative to the repo directory when no root was recorded', () => {
    const line = '{"event":"test","file":"/repo/test/a.mjs","path":["g","t"],"passed":false,"failureType":"testTimeoutFailure"}';
    const report = parseNodeTestReport(`${line}\n{"event":"end"}\n`, ['/repo']);
    expect(report.tests).toEqual([{ id: 'test/a.mjs::g > t', status: 'error' }]);
  });
});

describe('parseNodeTestReport: whole files and repeated names', () => {
  const line = (o: object) => JSON.stringify(o);
  it('counts a file node:test reports only as a whole (a plain script, tape) as one test named by the file', () => {
    const text = [
      line({ event: 'file', file: '/repo/test/plain.mjs', passed: true }),
      line({ event: 'test', file: '/repo/test/a.test.mjs', path: ['adds'], passed: true }),
      line({ event: 'file', file: '/repo/test/a.test.mjs', passed: true }),
      line({ event: 'end' }),
    ].join('\n');
    expect(parseNodeTestReport(text, ['/repo']).tests).toEqual([
      { id: 'test/a.test.mjs::adds', status: 'pass' },
      { id: 'test/plain.mjs', status: 'pass' },
    ]);
  });

  it('numbers two tests with the same name in one file instead of merging them', () => {
    const text = [
      line({ event: 'test', file: '/repo/test/a.test.mjs', path: ['same'], passed: true }),
      line({ event: 'test', file: '/repo/test/a.test.mjs', path: ['same'], passed: false, failureType: 'testCodeFailure', message: 'boom' }),
      line({ event: 'end' }),
    ].join('\n');
    const report = parseNodeTestReport(text, ['/repo']);
    expect(report.tests.map((t) => [t.id, t.status])).toEqual([['test/a.test.mjs::same', 'pass'], ['test/a.test.mjs::same #2', 'fail']]);
    expect(report.problems).toEqual([]);
  });
});
