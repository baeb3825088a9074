import { describe, expect, it } from 'vitest';
import { parseJestJsonReport } from './jest-json-report.js';

const options = { roots: ['/repo'], reportFile: 'jest.json' };

function reportWith(testResults: unknown[]): string {
  return JSON.stringify({ testResults });
}

describe('parseJestJsonReport', () => {
  it('names tests by repo-relative file, ancestors and title', () => {
    const report = parseJestJsonReport(
      reportWith([
        {
          name: '/repo/test/a.test.js',
          status: 'failed',
          message: '',
          assertionResults: [
            { ancestorTitles: [], title: 'top', status: 'passed', failureMessages: [] },
            {
              ancestorTitles: ['outer', 'inner'],
              title: 'deep',
              status: 'failed',
              failureMessages: ['Error: \u001b[31mnope\u001b[39m\n    at x'],
            },
          ],
        },
      ]),
      options,
    );
    expect(report).toEqual({
      tests: [
        { id: 'test/a.test.js::top', status: 'pass' },
        { id: 'test/a.test.js::outer > inner > deep', status: 'fail', message: 'Error: nope' },
      ],
      problems: [],
    });
  });

  it('maps pending, skipped, todo and disabled tests to skip', () => {
    const assertionResults = ['pending', 'skipped', 'todo', 'disabled'].map((status) => ({
      ancestorTitles: [],
      title: status,
      status,
    }));
    const report = parseJestJsonReport(reportWith([{ name: '/repo/a.js', status: 'passed', assertionResults }]), options);
    expect(report.tests.map((t) => t.status)).toEqual(['skip', 'skip', 'skip', 'skip']);
  });

  it('turns a file that crashed into one error named by the file', () => {
    const message = '  ● Test suite failed to run\n\n    Cannot find module "x"\n';
    const file = { name: '/repo/a.js', status: 'failed', message, assertionResults: [] };
    const report = parseJestJsonReport(reportWith([file]), options);
    expect(report.tests).toEqual([{ id: 'a.js', status: 'error', message: 'Cannot find module "x"' }]);
  });

  it('adds an error for a file that failed although none of its tests did', () => {
    const assertionResults = [{ ancestorTitles: [], title: 'ok', status: 'passed' }];
    const file = { name: '/repo/a.js', status: 'failed', message: '', assertionResults };
    const report = parseJestJsonReport(reportWith([file]), options);
    expect(report.tests).toEqual([
      { id: 'a.js::ok', status: 'pass' },
      { id: 'a.js', status: 'error', message: 'the test file failed outside its tests' },
    ]);
  });

  it('reports an unknown status as an error and a problem', () => {
    const assertionResults = [{ ancestorTitles: [], title: 't', status: 'exploded' }];
    const report = parseJestJsonReport(reportWith([{ name: '/repo/a.js', status: 'passed', assertionResults }]), options);
    expect(report.tests).toEqual([{ id: 'a.js::t', status: 'error', message: 'unknown status exploded' }]);
    expect(report.problems).toEqual(['test "a.js::t" has an unknown status "exploded"']);
  });

  it('reports invalid JSON and a wrong shape as problems', () => {
    expect(parseJestJsonReport('{', options).problems).toEqual(['report jest.json is not valid JSON']);
    const wrongShape = parseJestJsonReport('{"testResults": [{"name": 1}]}', options);
    expect(wrongShape.tests).toEqual([]);
    expect(wrongShape.problems[0]).toMatch(/^report jest\.json does not have the jest JSON shape at testResults\.0\.name/);
  });

  it('reports an interrupted run as a problem', () => {
    const report = parseJestJsonReport(JSON.stringify({ testResults: [], wasInterrupted: true }), options);
    expect(report.problems).toEqual(['report jest.json says the run was interrupted']);
  });
});
