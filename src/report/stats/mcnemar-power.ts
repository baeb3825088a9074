/** Significance level and power of every minimum detectable difference bakeoff states. */
export const POWER_ALPHA = 0.05;
export const POWER_TARGET = 0.8;
/** The grid the exact-McNemar MDD is searched on (notes/statistics.md, "Power"). */
export const MDD_STEP = 0.005;

/**
 * Fewest tasks with which the exact McNemar test can reach p ≤ 0.05 at all: every task
 * discordant and won by the same side gives p = 2 · 0.5^T, which is ≤ 0.05 from T = 6 on.
 */
export const MCNEMAR_MIN_TASKS = 6;

/**
 * Power of the exact McNemar test (two-sided, level `alpha`) on `tasks` paired tasks, one run per
 * task, when A alone solves a task with probability `p10` and B alone with `p01`
 * (notes/statistics.md, "Power"): the number of A-only and B-only tasks is multinomial over the
 * tasks, and the power is the probability of the (b, c) whose exact-McNemar p is ≤ alpha.
 * Computed exactly: the discordant count n is Binomial(T, p10 + p01), and given n the A-only
 * count is Binomial(n, p10 / (p10 + p01)); the rejection region of each n is a pair of tails.
 *
 * @throws RangeError unless tasks is an integer ≥ 0, p10, p01 ≥ 0 and p10 + p01 ≤ 1
 */
export function mcnemarPower(tasks: number, p10: number, p01: number, alpha: number = POWER_ALPHA): number {
  if (!Number.isInteger(tasks) || tasks < 0) throw new RangeError(`mcnemarPower: tasks must be an integer ≥ 0, got ${tasks}`);
  if (!(p10 >= 0 && p01 >= 0 && p10 + p01 <= 1 + 1e-12)) {
    throw new RangeError(`mcnemarPower: need p10, p01 ≥ 0 and p10 + p01 ≤ 1, got ${p10} and ${p01}`);
  }
  const psi = Math.min(1, p10 + p01);
  if (psi === 0) return 0;
  const q = p10 / psi;
  const logFact = logFactorials(tasks);
  const critical = criticalCounts(tasks, alpha);
  // terms more than 12 standard deviations from a binomial's mean weigh under 1e-30: skipped
  const [nLow, nHigh] = window(tasks, psi);
  let power = 0;
  for (let n = Math.max(1, nLow); n <= nHigh; n++) {
    const k = critical[n]!;
    if (k < 0) continue; // no split of n discordant tasks reaches alpha
    const pN = binomialPmf(tasks, n, psi, logFact);
    const [bLow, bHigh] = window(n, q);
    // reject when min(b, n − b) ≤ k: b ≤ k or b ≥ n − k (disjoint: 2k < n whenever p ≤ alpha < 1)
    let tails = 0;
    for (let b = bLow; b <= Math.min(k, bHigh); b++) tails += binomialPmf(n, b, q, logFact);
    for (let b = Math.max(n - k, bLow); b <= bHigh; b++) tails += binomialPmf(n, b, q, logFact);
    power += pN * tails;
  }
  return Math.min(1, power);
}

/** The result of {@link mcnemarMdd}. */
export interface McNemarMdd {
  /** The smallest net difference p10 − p01 on the grid with power ≥ the target; null when none reaches it. */
  readonly mdd: number | null;
  /** The power at `mdd` (or at d = ψ, the largest difference the discordance allows, when `mdd` is null). */
  readonly power: number;
}

/**
 * Minimum detectable difference of an exact McNemar comparison with one run per task
 * (notes/statistics.md, "Power"): the smallest d = p10 − p01, with p10 + p01 = `discordance`,
 * searched in steps of {@link MDD_STEP}, whose power is at least `power`. Not reachable (null)
 * when even d = ψ (every discordant task won by one side) falls short, e.g. always with fewer
 * than {@link MCNEMAR_MIN_TASKS} tasks.
 */
export function mcnemarMdd(tasks: number, discordance: number, options: { readonly alpha?: number; readonly power?: number } = {}): McNemarMdd {
  const alpha = options.alpha ?? POWER_ALPHA;
  const target = options.power ?? POWER_TARGET;
  if (!(discordance >= 0 && discordance <= 1)) throw new RangeError(`mcnemarMdd: discordance must be in [0, 1], got ${discordance}`);
  const steps = Math.floor(discordance / MDD_STEP + 1e-9);
  let last = 0;
  for (let i = 1; i <= steps; i++) {
    const d = i * MDD_STEP;
    last = mcnemarPower(tasks, (discordance + d) / 2, Math.max(0, (discordance - d) / 2), alpha);
    if (last >= target) return { mdd: d, power: last };
  }
  return { mdd: null, power: discordance === steps * MDD_STEP ? last : mcnemarPower(tasks, discordance, 0, alpha) };
}

/** Critical counts per alpha, by number of discordant tasks, grown as needed (they do not depend on the tasks). */
const CRITICAL = new Map<number, number[]>();

/**
 * For each count n of discordant tasks (0 … tasks), the largest k such that a split with
 * min(b, c) ≤ k has exact-McNemar p = 2 · P(Binomial(n, ½) ≤ k) ≤ alpha; −1 when no split of n
 * does (the p of `exactMcNemar`, summed the same way).
 */
function criticalCounts(tasks: number, alpha: number): readonly number[] {
  const out = CRITICAL.get(alpha) ?? [];
  CRITICAL.set(alpha, out);
  for (let n = out.length; n <= tasks; n++) {
    const log2n = n * Math.LN2;
    let logChoose = 0;
    let tail = 0;
    let k = -1;
    for (let j = 0; 2 * j < n; j++) {
      tail += Math.exp(logChoose - log2n);
      if (2 * tail > alpha) break;
      k = j;
      logChoose += Math.log(n - j) - Math.log(j + 1);
    }
    out.push(k);
  }
  return out;
}

/** The counts of Binomial(n, p) within 12 standard deviations of its mean, clamped to [0, n]. */
function window(n: number, p: number): [number, number] {
  const spread = 12 * Math.sqrt(n * p * (1 - p)) + 1;
  return [Math.max(0, Math.floor(n * p - spread)), Math.min(n, Math.ceil(n * p + spread))];
}

function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) out[i] = out[i - 1]! + Math.log(i);
  return out;
}

/** P(X = k) for X ~ Binomial(n, p), in log space; exact 0/1 at p = 0 and p = 1. */
function binomialPmf(n: number, k: number, p: number, logFact: Float64Array): number {
  if (p === 0) return k === 0 ? 1 : 0;
  if (p === 1) return k === n ? 1 : 0;
  return Math.exp(logFact[n]! - logFact[k]! - logFact[n - k]! + k * Math.log(p) + (n - k) * Math.log1p(-p));
}
