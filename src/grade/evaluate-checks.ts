import type { CheckResult as GeneratedCheckResult } from './checks/types.js';
import type { CheckResult, Evaluation } from './evaluate.js';

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
