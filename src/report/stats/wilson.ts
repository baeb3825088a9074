import { clampInterval, Z_95, type Interval } from './interval.js';

/**
 * Wilson score interval for a binomial share k/n (notes/statistics.md, "Share solved with a 95%
 * interval"). Unlike the normal interval it stays inside [0, 1] and is not degenerate at 0/n or
 * n/n, which is why the leaderboard uses it when every run is from a different task.
 *
 * @param k successes in [0, n]; a fraction when each trial is itself a share (Wilson over tasks,
 *   each task counting its share of solved runs: 1 of 2 → 0.5)
 * @param n trials, an integer ≥ 1
 * @param z normal quantile; the default gives a two-sided 95% interval
 * @throws RangeError when n < 1 or k is outside [0, n] (or not a finite number)
 */
export function wilson(k: number, n: number, z: number = Z_95): Interval {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`wilson: n must be an integer ≥ 1, got ${n}`);
  }
  if (!Number.isFinite(k) || k < 0 || k > n) {
    throw new RangeError(`wilson: k must be a number in [0, ${n}], got ${k}`);
  }
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamping only removes rounding noise (e.g. -1e-17 at k = 0).
  return clampInterval({ low: centre - halfWidth, high: centre + halfWidth });
}
