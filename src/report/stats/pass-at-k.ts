/**
 * Repeat metrics for one task with n runs of which c solved (notes/statistics.md, "Repeats";
 * Chen et al. 2021). Both are computed as running products, never as binomial coefficients, so
 * they stay exact-ish for large n.
 */

function checkArguments(name: string, n: number, c: number, k: number): void {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`${name}: n must be an integer ≥ 1, got ${n}`);
  }
  if (!Number.isInteger(c) || c < 0 || c > n) {
    throw new RangeError(`${name}: c must be an integer in [0, ${n}], got ${c}`);
  }
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new RangeError(`${name}: k must be an integer in [1, ${n}], got ${k}`);
  }
}

/**
 * pass@k = 1 − C(n−c, k) / C(n, k): the chance that at least one of k runs drawn without
 * replacement from the n solves (unbiased estimator).
 */
export function passAtK(n: number, c: number, k: number): number {
  checkArguments('passAtK', n, c, k);
  if (n - c < k) return 1;
  let allFail = 1;
  for (let i = 0; i < k; i++) allFail *= (n - c - i) / (n - i);
  return 1 - allFail;
}

/** pass^k = C(c, k) / C(n, k): the chance that all of k runs drawn from the n solve. */
export function passHatK(n: number, c: number, k: number): number {
  checkArguments('passHatK', n, c, k);
  if (c < k) return 0;
  let allSolve = 1;
  for (let i = 0; i < k; i++) allSolve *= (c - i) / (n - i);
  return allSolve;
}
