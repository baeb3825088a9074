import type { TestStatus } from '../grade/index.js';

/** Each test id of one test run with its status. */
export type Statuses = ReadonlyMap<string, TestStatus>;

/** The ids whose status differs between two runs (missing in one counts), sorted. Pure. */
export function differences(a: Statuses, b: Statuses): string[] {
  const ids = new Set([...a.keys(), ...b.keys()]);
  return [...ids].filter((id) => a.get(id) !== b.get(id)).sort();
}

/** The ids two runs disagree on, with each run's status: `t1 (fail, then pass)`. Pure. */
export function disagreement(ids: readonly string[], a: Statuses, b: Statuses): string {
  return list(ids.map((id) => `${id} (${a.get(id) ?? 'missing'}, then ${b.get(id) ?? 'missing'})`));
}

/** At most three items, then how many more: `a, b, c and 2 more`. Pure. */
export function list(ids: readonly string[]): string {
  return ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;
}
