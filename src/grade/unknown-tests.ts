import type { ParsedReport } from './types.js';

/**
 * Tests a graded report names that the lock does not know (not expected, not a known failure;
 * bakeoff's tripwires already taken out) and that passed, failed or errored — for a runner whose
 * report the tests can write into (`TestRunner.forgeableReport`: a `# decoy` heading the code
 * under test printed, or a real name printed again to move a failure out of its test;
 * decision 008), and only when the lock expects ids (never at admission). Skips are allowed: a
 * moved line keeps its status, and no failing line can become a skip. Pure.
 */
export function unknownTests(report: ParsedReport, options: { readonly forgeable: boolean; readonly expectedIds: readonly string[]; readonly knownFailures?: readonly string[] }): string[] {
  if (!options.forgeable || options.expectedIds.length === 0) return [];
  const known = new Set([...options.expectedIds, ...(options.knownFailures ?? [])]);
  return report.tests.filter((t) => t.status !== 'skip' && !known.has(t.id)).map((t) => t.id);
}
