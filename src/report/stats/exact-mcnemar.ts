/**
 * Exact McNemar test for a paired comparison (notes/statistics.md, "Paired comparison"): a
 * two-sided binomial test with p = 1/2 on the discordant tasks,
 *
 *   p = min(1, 2 · Σ_{k=0}^{min(b,c)} C(b+c, k) · 0.5^(b+c))
 *
 * Terms are summed in log space so that large b + c does not underflow.
 *
 * @param b tasks A won (A solved, B not), an integer ≥ 0
 * @param c tasks B won, an integer ≥ 0
 * @returns the two-sided p-value; 1 when there are no discordant tasks
 */
export function exactMcNemar(b: number, c: number): number {
  for (const [name, value] of [['b', b], ['c', c]] as const) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`exactMcNemar: ${name} must be an integer ≥ 0, got ${value}`);
    }
  }
  const n = b + c;
  const log2n = n * Math.LN2;
  let logChoose = 0; // log C(n, 0)
  let tail = 0;
  for (let k = 0; k <= Math.min(b, c); k++) {
    tail += Math.exp(logChoose - log2n);
    logChoose += Math.log(n - k) - Math.log(k + 1); // → log C(n, k + 1)
  }
  return Math.min(1, 2 * tail);
}
