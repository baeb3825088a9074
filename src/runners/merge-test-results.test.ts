import { describe, expect, it } from 'vitest';
import { mergeTestResults } from './merge-test-results.js';

describe('mergeTestResults', () => {
  it('keeps distinct tests in the order they were first reported', () => {
    const tests = [
      { id: 'b', status: 'pass' as const },
      { id: 'a', status: 'fail' as const, message: 'x' },
    ];
    expect(mergeTestResults(tests)).toEqual({ tests, problems: [] });
  });

  it('collapses repeats with the same status without a problem', () => {
    const report = mergeTestResults([
      { id: 'a', status: 'pass' },
      { id: 'a', status: 'pass' },
    ]);
    expect(report).toEqual({ tests: [{ id: 'a', status: 'pass' }], problems: [] });
  });

  it('keeps the worst of disagreeing statuses, with its message, and reports a problem', () => {
    const report = mergeTestResults([
      { id: 'a', status: 'pass' },
      { id: 'a', status: 'error', message: 'hook broke' },
      { id: 'a', status: 'fail', message: 'assertion' },
    ]);
    expect(report.tests).toEqual([{ id: 'a', status: 'error', message: 'hook broke' }]);
    expect(report.problems).toEqual(['test "a" was reported with different statuses (pass, error, fail); counted as error']);
  });
});
