import type { TripwireVerdict } from './tripwires.js';
import type { CheckResult as GeneratedCheckResult } from './checks/types.js';
import type { ParsedReport, TestStatus } from './types.js';

/** The tests an order must pass, from the suite's lock file. */
export interface ExpectedTests {
  /** Failed on the unchanged repo, pass with the gold change. */
  readonly failToPass: readonly string[];
  /** Passed on the unchanged repo and still pass with the gold change. */
  readonly passToPass: readonly string[];
}

export type CheckStatus = TestStatus | 'missing';

/** One expected test's result in a graded order. */
export interface CheckResult {
  readonly id: string;
  /** Which set the check belongs to: a hidden test's fail-to-pass or pass-to-pass set, or a generated check. */
  readonly expected: 'fail-to-pass' | 'pass-to-pass' | 'generated';
  readonly status: CheckStatus;
  readonly passed: boolean;
}

export interface Evaluation {
  readonly checks: readonly CheckResult[];
  readonly points: number;
  readonly maxPoints: number;
  /** Null when the order is passed; else why not. */
  readonly failure:
    | null
    | {
        readonly reason:
          | 'tests-failed'
          | 'test-timeout'
          | 'checks-failed'
          | 'report-inconsistent'
          | 'protected-path-changed'
          | 'report-tampered'
          | 'report-unreadable'
          | 'output-limit'
          | 'memory-limit';
        readonly detail: string;
      };
}

/**
 * Grades one order from the runner's report. Only `pass` counts: an expected test that is
 * missing, skipped or errored fails. The runner's exit status is cross-checked against the
 * report, so output that claims passes the runner did not see (an early `exit(0)`, fake
 * reporter lines) cannot grade as passed; bakeoff's tripwire tests must come out as they must
 * (a must-fail reported passed is tampering, whatever else the report says), and no graded
 * test file may have changed while the tests ran. Tests that hit the memory limit fail as
 * `memory-limit` with 0 points, whatever the runner reported: how many passed before the OOM
 * killer struck depends on timing, and a verdict must not.
 */
export function evaluate(options: {
  readonly expected: ExpectedTests;
  /** The runner's report, tripwires included. */
  readonly report: ParsedReport;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly protectedChanged: readonly string[];
  /** How the report compares with the tripwires; absent: none were placed. */
  readonly tripwires?: TripwireVerdict;
  /** Graded test files that changed while the tests ran. */
  readonly gradedChanged?: readonly string[];
  /** The report is the output and the output was cut at its limit. */
  readonly outputCut?: boolean;
  /** Tests a forgeable report names that the lock does not know (see GradedTests.unknownTests). */
  readonly unknownTests?: readonly string[];
  /** A limit the test command's cgroup ran into (`memory`: the OOM killer killed in it, or it sat at its limit). */
  readonly limitHit?: 'memory' | 'pids' | null;
}): Evaluation {
  const { expected, report } = options;
  const byId = new Map(report.tests.map((t) => [t.id, t.status] as const));
  const checks: CheckResult[] = [
    ...expected.failToPass.map((id) => check(id, 'fail-to-pass', byId)),
    ...expected.passToPass.map((id) => check(id, 'pass-to-pass', byId)),
  ];
  const points = checks.filter((c) => c.passed).length;
  const result = { checks, points, maxPoints: checks.length };
  const fail = (reason: NonNullable<Evaluation['failure']>['reason'], detail: string): Evaluation => ({ ...result, failure: { reason, detail } });
  if (options.protectedChanged.length > 0) return fail('protected-path-changed', options.protectedChanged.join(', '));
  if (report.unreadable !== undefined) return fail('report-unreadable', report.unreadable);
  const flipped = options.tripwires?.flipped ?? [];
  if (flipped.length > 0) return fail('report-tampered', `bakeoff's tripwire tests: ${list(flipped)}`);
  const gradedChanged = options.gradedChanged ?? [];
  if (gradedChanged.length > 0) return fail('report-tampered', `graded test files changed while the tests ran: ${list(gradedChanged)}`);
  const notPassed = checks.filter((c) => !c.passed);
  // whatever the runner made of it (a timeout, a crashed worker, a missing report), the tests ran
  // out of memory. How far they got before the kernel's OOM killer struck is timing, not the
  // change, so nothing they reported counts: every check fails and the order scores 0, the
  // same on every re-grade.
  if (options.limitHit === 'memory') {
    return {
      checks: checks.map((c) => (c.passed ? { ...c, status: 'error' as const, passed: false } : c)),
      points: 0,
      maxPoints: checks.length,
      failure: { reason: 'memory-limit', detail: 'the tests hit the memory limit (controls.memoryMb) while they ran; an order cut by it scores 0' },
    };
  }
  if (options.timedOut) return fail('test-timeout', 'the test command timed out');
  if (notPassed.length > 0) {
    const shown = notPassed.slice(0, 5).map((c) => `${c.id} (${c.status})`).join(', ');
    const more = notPassed.length > 5 ? ` and ${notPassed.length - 5} more` : '';
    if (options.outputCut && notPassed.some((c) => c.status === 'missing')) {
      return fail('output-limit', `the tests printed more than the output limit (controls.outputMb) and results were lost with what was cut: ${shown}${more}`);
    }
    return fail('tests-failed', shown + more);
  }
  const wrong = options.tripwires?.wrong ?? [];
  if (wrong.length > 0) return fail('report-tampered', `bakeoff's tripwire tests: ${list(wrong)}`);
  const unknown = options.unknownTests ?? [];
  if (unknown.length > 0) {
    return fail('report-inconsistent', `the report names tests the task does not have (lines the code under test printed, or results moved to another test's name): ${list(unknown)}`);
  }
  const inconsistency = crossCheck(report, options.exitCode);
  return { ...result, failure: inconsistency ? { reason: 'report-inconsistent', detail: inconsistency } : null };
}

function list(items: readonly string[]): string {
  return items.length <= 3 ? items.join('; ') : `${items.slice(0, 3).join('; ')} and ${items.length - 3} more`;
}

function check(id: string, expected: CheckResult['expected'], byId: ReadonlyMap<string, TestStatus>): CheckResult {
  const status = byId.get(id) ?? 'missing';
  return { id, expected, status, passed: status === 'pass' };
}

/** Why the report cannot be trusted, or null. */
export function crossCheck(report: ParsedReport, exitCode: number | null): string | null {
  if (report.problems.length > 0) return `report problems: ${report.problems.slice(0, 3).join('; ')}`;
  const failing = report.tests.filter((t) => t.status === 'fail' || t.status === 'error').length;
  if (exitCode === 0 && failing > 0) return `the runner exited 0 but reported ${failing} failing test(s)`;
  if (exitCode !== 0 && failing === 0) {
    return `the runner exited with ${exitCode ?? 'a signal'} but reported no failing test`;
  }
  return null;
}

/** Grades one order from its generated checks: one point per passed check. Pure. */
export function evaluateChecks(results: readonly GeneratedCheckResult[], protectedChanged: readonly string[]): Evaluation {
  const checks: CheckResult[] = results.map((r) => ({
    id: r.id,
    expected: 'generated',
    status: r.passed ? 'pass' : r.failure === 'wrong-result' || r.failure === 'source-limit' ? 'fail' : 'error',
    passed: r.passed,
  }));
  const points = checks.filter((c) => c.passed).length;
  const base = { checks, points, maxPoints: checks.length };
  if (protectedChanged.length > 0) {
    // changing a protected file fails every check of the order
    return {
      checks: checks.map((c) => ({ ...c, status: 'fail', passed: false })),
      points: 0,
      maxPoints: checks.length,
      failure: { reason: 'protected-path-changed', detail: protectedChanged.join(', ') },
    };
  }
  const failed = results.filter((r) => !r.passed);
  if (failed.length === 0) return { ...base, failure: null };
  const shown = failed.slice(0, 3).map((r) => `${r.id} (${r.failure}${r.message ? `: ${r.message.slice(0, 80)}` : ''})`).join(', ');
  return { ...base, failure: { reason: 'checks-failed', detail: `${failed.length} of ${results.length} checks failed: ${shown}` } };
}
