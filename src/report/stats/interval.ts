/** A closed interval `[low, high]`, e.g. a 95% confidence interval. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** Clamp both ends of an interval into `[min, max]` (shares live in [0, 1]). */
export function clampInterval(interval: Interval, min = 0, max = 1): Interval {
  const clamp = (x: number): number => Math.min(max, Math.max(min, x));
  return { low: clamp(interval.low), high: clamp(interval.high) };
}

/** z for a two-sided 95% normal interval: Φ⁻¹(0.975). */
export const Z_95 = 1.959963984540054;
