import type { TestResult } from './types.js';

/**
 * Gives tests that share an id within one report a stable occurrence number: the first keeps
 * its id, the second becomes `<id> #2`, and so on, in the order the runner reported them (the
 * order they are defined in, for jest, vitest and node:test). Two tests with the same title in
 * one file are two tests to grade, never one: without this they merged silently.
 */
export function numberRepeats(results: readonly TestResult[]): TestResult[] {
  const seen = new Map<string, number>();
  return results.map((result) => {
    const n = (seen.get(result.id) ?? 0) + 1;
    seen.set(result.id, n);
    return n === 1 ? result : { ...result, id: `${result.id} #${n}` };
  });
}
