import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { idsAndStatuses } from './golden-reports.test-support.js';
import { findReports, junitRunner, removeStaleReports } from './junit.js';
import { parseJunitXml } from './parse-junit.js';
import { ReportUnreadableError } from './read-report-file.js';

const REPORTS = fileURLToPath(new URL('../../test/fixtures/reports/', import.meta.url));
const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

/** A repo holding the golden XML of `sample` at reports/junit.xml, and its report folder. */
async function repoWithGolden(sample: string): Promise<{ repoDir: string; reportDir: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-junit-'));
  temps.push(root);
  const repoDir = path.join(root, 'repo');
  await mkdir(path.join(repoDir, 'reports'), { recursive: true });
  await writeFile(path.join(repoDir, 'reports/junit.xml'), await readFile(path.join(REPORTS, sample, 'report/reports__junit.xml')));
  return { repoDir, reportDir: path.join(REPORTS, sample, 'report') };
}

describe('junitRunner', () => {
  it.each(['junit-pytest', 'junit-mocha'])('%s: reads the real XML at test.report into exact ids and statuses', async (sample) => {
    const { repoDir, reportDir } = await repoWithGolden(sample);
    const expected = JSON.parse(await readFile(path.join(REPORTS, sample, 'expected.json'), 'utf8'));
    const report = await junitRunner.parse({ reportDir, output: '', repoDir, report: 'reports/*.xml' });
    expect(idsAndStatuses(report.tests)).toEqual(idsAndStatuses(expected.tests));
    expect(report.problems).toEqual([]);
    expect(report.sources?.map((s) => s.name)).toEqual(['reports__junit.xml']);
  });

  it('maps failure, error and skipped, with the message attribute decoded', async () => {
    const { repoDir, reportDir } = await repoWithGolden('junit-pytest');
    const { tests } = await junitRunner.parse({ reportDir, output: '', repoDir, report: 'reports/junit.xml' });
    expect(tests.find((t) => t.id === 'tests.test_sample::test_fails')).toEqual({ id: 'tests.test_sample::test_fails', status: 'fail', message: 'AssertionError: adds wrong' });
    expect(tests.find((t) => t.id === 'tests.test_sample::test_setup_error')?.status).toBe('error');
    expect(tests.find((t) => t.id === 'tests.test_sample::test_skipped')?.status).toBe('skip');
  });

  it('gives the file a suite names, relative to the repo root, as the first part of the id', async () => {
    const { repoDir, reportDir } = await repoWithGolden('junit-mocha');
    const { tests } = await junitRunner.parse({ reportDir, output: '', repoDir, report: 'reports/junit.xml' });
    expect(tests.map((t) => t.id)).toContain('test/sample.js::deep fails::group inner deep fails');
  });

  it('reports a problem when the run wrote no report, and refuses to read one through a symlink', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-junit-'));
    temps.push(root);
    expect(await junitRunner.parse({ reportDir: root, output: '', repoDir: root, report: 'reports/*.xml' })).toEqual({
      tests: [],
      problems: ['no JUnit report was written at reports/*.xml (task.yaml test.report)'],
    });
    await mkdir(path.join(root, 'reports'));
    await writeFile(path.join(root, 'fake.xml'), '<testsuite><testcase name="x"/></testsuite>');
    await symlink(path.join(root, 'fake.xml'), path.join(root, 'reports/junit.xml'));
    await expect(junitRunner.parse({ reportDir: root, output: '', repoDir: root, report: 'reports/*.xml' })).rejects.toBeInstanceOf(ReportUnreadableError);
  });

  it('finds the files a glob names and deletes what a change left there before grading', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-junit-'));
    temps.push(root);
    for (const rel of ['out/a.xml', 'out/deep/b.xml', 'out/c.txt', 'other/d.xml']) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), '<testsuite/>');
    }
    expect(await findReports(root, 'out/**/*.xml')).toEqual(['out/a.xml', 'out/deep/b.xml']);
    expect(await findReports(root, 'other/d.xml')).toEqual(['other/d.xml']);
    expect(await removeStaleReports(root, 'out/**/*.xml')).toEqual(['out/a.xml', 'out/deep/b.xml']);
    expect(await findReports(root, 'out/**/*')).toEqual(['out/c.txt']);
  });
});

describe('parseJunitXml', () => {
  it('reads nested suites, a lone testsuite root, and names without a class', () => {
    const xml = '<testsuite name="a"><testcase name="top"/><testsuite name="b" file="x.test.js"><testcase classname="B" name="inner"><failure>first line\nsecond</failure></testcase></testsuite></testsuite>';
    expect(parseJunitXml(xml, 'r.xml', []).tests).toEqual([
      { id: 'top', status: 'pass' },
      { id: 'x.test.js::B::inner', status: 'fail', message: 'first line' },
    ]);
  });

  it('refuses a DOCTYPE (entity expansion), XML that is not well-formed, and a document without a suite', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><testsuite><testcase name="&a;"/></testsuite>';
    expect(parseJunitXml(bomb, 'r.xml', []).problems).toEqual(['JUnit report r.xml has a DOCTYPE or entity declarations (not read)']);
    expect(parseJunitXml('<testsuite><testcase name="x"></testsuite>', 'r.xml', []).problems[0]).toMatch(/^JUnit report r.xml is not well-formed XML/);
    expect(parseJunitXml('<results/>', 'r.xml', []).problems).toEqual(['JUnit report r.xml holds no <testsuite>']);
  });
});
