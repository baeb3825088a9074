/**
 * Median of a list of numbers (mean of the two middle values for an even count).
 * Returns null for an empty list, so "no data" stays distinct from 0.
 */
export function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  // a typed array sorts numbers natively, without a comparator call per pair (100k run times in a report)
  const sorted = Float64Array.from(xs).sort();
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}
