import { EventEmitter } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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

  it('gives a mocha before 6 (no --no-bail, no --reporter-option) its report file and bail off through the environment', async () => {
    const reportDir = await tempDir('bakeoff-mocha-');
    const repo = await tempDir('bakeoff-mocha-repo-');
    await mkdir(path.join(repo, 'node_modules', 'mocha'), { recursive: true });
    await writeFile(path.join(repo, 'node_modules', 'mocha', 'package.json'), '{ "version": "2.3.3" }');
    const old = mochaRunner.instrument('npx mocha --bail test/', { reportDir, configSource: repo });
    expect(old.command).toBe(`{ pwd; pwd -P; } > '${reportDir}/root.txt'; npx mocha --bail test/ --reporter '${reportDir}/mocha-reporter.cjs'`);
    expect(old.env).toEqual({ BAKEOFF_MOCHA_REPORT: `${reportDir}/mocha.jsonl`, BAKEOFF_MOCHA_NO_BAIL: '1' });
    await writeFile(path.join(repo, 'node_modules', 'mocha', 'package.json'), '{ "version": "6.0.0" }');
    expect(mochaRunner.instrument('npx mocha', { reportDir, configSource: repo }).command).toContain('--no-bail');

    // the reporter as such a mocha drives it: no titlePath(), options without reporterOptions, bail set on the suites
    const require = createRequire(import.meta.url);
    const Reporter = require(path.join(reportDir, 'mocha-reporter.cjs')) as new (runner: EventEmitter, options: object) => unknown;
    const suite = (title: string, parent: object | null, root = false) => ({ title, parent, root, suites: [] as object[], _bail: true, bail(b?: boolean) { if (b === undefined) return this._bail; this._bail = b; return this; } });
    const rootSuite = suite('', null, true);
    const group = suite('group', rootSuite);
    const inner = suite('inner', group);
    rootSuite.suites.push(group);
    group.suites.push(inner);
    const runner = Object.assign(new EventEmitter(), { suite: rootSuite });
    const env = { ...process.env };
    process.env['BAKEOFF_MOCHA_REPORT'] = old.env['BAKEOFF_MOCHA_REPORT'];
    process.env['BAKEOFF_MOCHA_NO_BAIL'] = '1';
    try {
      new Reporter(runner, {});
    } finally {
      process.env = env;
    }
    expect([rootSuite, group, inner].map((s) => s.bail())).toEqual([false, false, false]);
    const test = { title: 'passes', parent: inner, file: `${repo}/test/a.js`, type: 'test' };
    runner.emit('pass', test);
    runner.emit('test end', test);
    runner.emit('end');
    const parsed = parseMochaReport(await readFile(path.join(reportDir, 'mocha.jsonl'), 'utf8'), [repo]);
    expect(parsed).toMatchObject({ tests: [{ id: 'test/a.js::group > inner > passes', status: 'pass' }], problems: [] });
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
