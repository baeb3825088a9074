/** The variances of a paired comparison's per-task shares, as notes/statistics.md ("Power") estimates them. */
export interface PairedVariances {
  /** Tasks T the estimate is over. */
  readonly tasks: number;
  /** Mean per-task difference d̄ of shares solved (A − B). */
  readonly meanDifference: number;
  /** Sample variance of the per-task differences d_t (denominator T − 1); 0 with one task. */
  readonly differenceVar: number;
  /** w̄: mean over tasks of pA(1 − pA) + pB(1 − pB), from the per-task shares (plug-in). */
  readonly withinVar: number;
  /** sd_b = sqrt(max(0, var(d_t) − w̄/k)): the spread of the true per-task differences. */
  readonly betweenSd: number;
  /**
   * Discordance one run per task would show: the mean over tasks of pA(1 − pB) + pB(1 − pA), the
   * chance that one run of each disagrees (with one run per task, the share of discordant tasks).
   */
  readonly oneRunDiscordance: number;
}

/**
 * Estimates the between-task and within-task variances of a paired comparison from its per-task
 * run scores (notes/statistics.md, "Power": sd_b² = max(0, var(d_t) − w̄/k), w̄ from the per-task
 * shares). Pure.
 *
 * @param scores per task, A's and B's run scores (0/1), each side at least one run
 * @param runsPerTask k: the runs per task the variance of a task's difference was observed with
 */
export function estimateVariances(scores: readonly (readonly [readonly number[], readonly number[]])[], runsPerTask: number): PairedVariances {
  const tasks = scores.length;
  if (tasks === 0) throw new RangeError('estimateVariances: no tasks');
  const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
  const shares = scores.map(([a, b]) => [mean(a), mean(b)] as const);
  const d = shares.map(([pa, pb]) => pa - pb);
  const meanDifference = mean(d);
  const differenceVar = tasks < 2 ? 0 : d.reduce((s, x) => s + (x - meanDifference) ** 2, 0) / (tasks - 1);
  const withinVar = mean(shares.map(([pa, pb]) => pa * (1 - pa) + pb * (1 - pb)));
  const betweenSd = Math.sqrt(Math.max(0, differenceVar - withinVar / runsPerTask));
  const oneRunDiscordance = mean(shares.map(([pa, pb]) => pa * (1 - pb) + pb * (1 - pa)));
  return { tasks, meanDifference, differenceVar, withinVar, betweenSd, oneRunDiscordance };
}
