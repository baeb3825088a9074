import type { ParsedReport, TestResult, TestStatus } from './types.js';

/** How bad a status is; when one id has several, the worst one counts. */
const SEVERITY: Readonly<Record<TestStatus, number>> = { pass: 0, skip: 1, fail: 2, error: 3 };

/**
 * Merges results that share an id, keeping first-seen order. Repeats with the same status
 * collapse silently; repeats that disagree keep the worst status (with its message) and add a
 * problem, since a runner reports each test once: disagreement means a malformed report or
 * lines printed by the code under test. `earlier` are the problems the caller found before
 * (malformed lines, a missing end line): they come first.
 */
export function mergeTestResults(results: readonly TestResult[], earlier: readonly string[] = []): ParsedReport {
  const byId = new Map<string, TestResult>();
  const statuses = new Map<string, Set<TestStatus>>();
  for (const result of results) {
    const seen = statuses.get(result.id) ?? new Set<TestStatus>();
    seen.add(result.status);
    statuses.set(result.id, seen);
    const current = byId.get(result.id);
    if (current === undefined || SEVERITY[result.status] > SEVERITY[current.status]) byId.set(result.id, result);
  }
  const problems = [...earlier];
  for (const [id, seen] of statuses) {
    if (seen.size < 2) continue;
    const worst = byId.get(id)?.status;
    problems.push(`test "${id}" was reported with different statuses (${[...seen].join(', ')}); counted as ${worst}`);
  }
  return { tests: [...byId.values()], problems };
}
