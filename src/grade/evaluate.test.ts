import { describe, expect, it } from 'vitest';
import { crossCheck, evaluate } from './evaluate.js';
import type { ParsedReport, TestResult } from './types.js';

const expected = { failToPass: ['t::fixed'], passToPass: ['t::kept'] };
const report = (tests: TestResult[], problems: string[] = []): ParsedReport => ({ tests, problems });
const grade = (r: ParsedReport, exitCode: number | null, protectedChanged: string[] = []) =>
  evaluate({ expected, report: r, exitCode, timedOut: false, protectedChanged });

describe('evaluate', () => {
  it('passes an order when every expected test passes and the runner agrees', () => {
    const e = grade(report([{ id: 't::fixed', status: 'pass' }, { id: 't::kept', status: 'pass' }]), 0);
    expect(e.failure).toBeNull();
    expect([e.points, e.maxPoints]).toEqual([2, 2]);
  });

  it('counts a missing expected test as failed', () => {
    const e = grade(report([{ id: 't::kept', status: 'pass' }]), 0);
    expect(e.failure?.reason).toBe('tests-failed');
    expect(e.checks.find((c) => c.id === 't::fixed')?.status).toBe('missing');
    expect(e.points).toBe(1);
  });

  it('counts a skipped fail-to-pass test as failed', () => {
    const e = grade(report([{ id: 't::fixed', status: 'skip' }, { id: 't::kept', status: 'pass' }]), 0);
    expect(e.failure?.reason).toBe('tests-failed');
  });

  it('distrusts a report of passes when the runner exited non-zero', () => {
    const e = grade(report([{ id: 't::fixed', status: 'pass' }, { id: 't::kept', status: 'pass' }]), 1);
    expect(e.failure?.reason).toBe('report-inconsistent');
  });

  it('distrusts a forgeable report that names tests the task does not have, even when every expected test passed', () => {
    const r = report([{ id: 't::fixed', status: 'pass' }, { id: 't::kept', status: 'pass' }, { id: 'decoy', status: 'fail' }]);
    const e = evaluate({ expected, report: r, exitCode: 1, timedOut: false, protectedChanged: [], unknownTests: ['decoy'] });
    expect(e.failure).toMatchObject({ reason: 'report-inconsistent', detail: expect.stringContaining('decoy') });
  });

  it('distrusts a report with problems even when every test passed', () => {
    const e = grade(report([{ id: 't::fixed', status: 'pass' }, { id: 't::kept', status: 'pass' }], ['id reported twice']), 0);
    expect(e.failure?.reason).toBe('report-inconsistent');
  });

  it('fails an order that changed a protected path even if tests pass', () => {
    const e = grade(report([{ id: 't::fixed', status: 'pass' }, { id: 't::kept', status: 'pass' }]), 0, ['conftest.py']);
    expect(e.failure).toEqual({ reason: 'protected-path-changed', detail: 'conftest.py' });
  });

  it('fails an order whose test command timed out', () => {
    const e = evaluate({ expected, report: report([]), exitCode: null, timedOut: true, protectedChanged: [] });
    expect(e.failure).toEqual({ reason: 'test-timeout', detail: 'the test command timed out' });
  });
});

describe('evaluate: the memory limit', () => {
  const passing = report([{ id: 't::fixed', status: 'pass' }, { id: 't::kept', status: 'pass' }]);

  it('fails tests that hit the memory limit as memory-limit, whatever the runner said: a timeout, missing results, even all passed', () => {
    for (const [r, timedOut] of [[report([]), true], [report([{ id: 't::kept', status: 'pass' }]), false], [passing, false]] as const) {
      const e = evaluate({ expected, report: r, exitCode: timedOut ? null : 1, timedOut, protectedChanged: [], limitHit: 'memory' });
      expect(e.failure?.reason).toBe('memory-limit');
      // how far the tests got before the OOM killer is timing: it never earns a point
      expect([e.points, e.maxPoints]).toEqual([0, 2]);
      expect(e.checks.filter((c) => c.passed)).toEqual([]);
    }
  });

  it('still names a changed protected path or a tampered report first', () => {
    expect(evaluate({ expected, report: passing, exitCode: 0, timedOut: false, protectedChanged: ['conftest.py'], limitHit: 'memory' }).failure?.reason).toBe('protected-path-changed');
    const flipped = { flipped: ['t::wire'], wrong: [] };
    expect(evaluate({ expected, report: passing, exitCode: 0, timedOut: false, protectedChanged: [], tripwires: flipped, limitHit: 'memory' }).failure?.reason).toBe('report-tampered');
  });

  it('leaves the process limit to the runner', () => {
    expect(evaluate({ expected, report: passing, exitCode: 0, timedOut: false, protectedChanged: [], limitHit: 'pids' }).failure).toBeNull();
  });
});

describe('crossCheck', () => {
  it('flags exit 0 with failing tests reported', () => {
    expect(crossCheck(report([{ id: 'a', status: 'fail' }]), 0)).toMatch(/exited 0/);
  });
  it('accepts a non-zero exit with failures reported', () => {
    expect(crossCheck(report([{ id: 'a', status: 'fail' }]), 1)).toBeNull();
  });
});
