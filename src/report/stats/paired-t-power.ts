import { POWER_ALPHA, POWER_TARGET } from './mcnemar-power.js';
import { studentTCdf, studentTQuantile } from './student-t-quantile.js';

/** A design with several runs per task, and the variances it is judged by. */
export interface PairedTDesign {
  /** Tasks T (≥ 2). */
  readonly tasks: number;
  /** Runs per task and agent k (≥ 1). */
  readonly runsPerTask: number;
  /** sd_b: standard deviation of the true per-task differences (does not shrink with k). */
  readonly betweenSd: number;
  /** w: mean within-task Bernoulli variance, pA(1 − pA) + pB(1 − pB) (shrinks with k). */
  readonly withinVar: number;
}

/** SE of the mean paired difference: sqrt(sd_b²/T + w/(k·T)). */
export function pairedTSe(design: PairedTDesign): number {
  check(design);
  const { tasks, runsPerTask, betweenSd, withinVar } = design;
  return Math.sqrt((betweenSd * betweenSd) / tasks + withinVar / (runsPerTask * tasks));
}

/**
 * Minimum detectable difference of the paired t test on per-task shares (notes/statistics.md,
 * "Power"; Miller 2024): MDD ≈ (t(1 − α/2, T − 1) + t(power, T − 1)) · SE.
 */
export function pairedTMdd(design: PairedTDesign, options: { readonly alpha?: number; readonly power?: number } = {}): number {
  const df = design.tasks - 1;
  const factor = studentTQuantile(1 - (options.alpha ?? POWER_ALPHA) / 2, df) + studentTQuantile(options.power ?? POWER_TARGET, df);
  return factor * pairedTSe(design);
}

/**
 * Power of the same test at a true difference `difference` (the approximation the MDD inverts):
 * P(T_{T−1} > t(1 − α/2, T − 1) − |d| / SE); 1 when SE is 0 and d is not.
 */
export function pairedTPower(design: PairedTDesign, difference: number, alpha: number = POWER_ALPHA): number {
  const se = pairedTSe(design);
  const df = design.tasks - 1;
  if (se === 0) return difference === 0 ? alpha : 1;
  return 1 - studentTCdf(studentTQuantile(1 - alpha / 2, df) - Math.abs(difference) / se, df);
}

function check(design: PairedTDesign): void {
  const { tasks, runsPerTask, betweenSd, withinVar } = design;
  if (!Number.isInteger(tasks) || tasks < 2) throw new RangeError(`paired t: tasks must be an integer ≥ 2, got ${tasks}`);
  if (!Number.isInteger(runsPerTask) || runsPerTask < 1) throw new RangeError(`paired t: runs per task must be an integer ≥ 1, got ${runsPerTask}`);
  if (!(betweenSd >= 0)) throw new RangeError(`paired t: the between-task sd must be ≥ 0, got ${betweenSd}`);
  if (!(withinVar >= 0 && withinVar <= 0.5)) throw new RangeError(`paired t: the within-task variance must be in [0, 0.5], got ${withinVar}`);
}
