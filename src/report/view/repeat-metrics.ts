import { passAtK, passHatK } from '../stats/pass-at-k.js';

/** pass@k and pass^k of one agent at one k, averaged over the tasks with at least k valid runs. */
export interface RepeatMetric {
  readonly k: number;
  /** Mean over those tasks of the chance that at least one of k runs solves (unbiased, Chen et al. 2021). */
  readonly passAtK: number;
  /** Mean over those tasks of the chance that all k runs solve. */
  readonly passHatK: number;
  /** How many tasks had at least k valid runs (void runs are not samples of the agent). */
  readonly tasks: number;
}

/**
 * pass@k and pass^k for k = 1 … `maxK`, from each task's valid runs as 0/1 scores (n runs, c
 * solved). A k that no task has k valid runs for is left out, so the list may be shorter than `maxK`.
 */
export function repeatMetrics(scoresByTask: readonly (readonly number[])[], maxK: number): RepeatMetric[] {
  const counts = scoresByTask.map((scores) => ({ n: scores.length, c: scores.reduce((a, b) => a + b, 0) }));
  const metrics: RepeatMetric[] = [];
  for (let k = 1; k <= maxK; k++) {
    const eligible = counts.filter(({ n }) => n >= k);
    if (eligible.length === 0) break;
    const mean = (f: (n: number, c: number, k: number) => number) => eligible.reduce((sum, { n, c }) => sum + f(n, c, k), 0) / eligible.length;
    metrics.push({ k, passAtK: mean(passAtK), passHatK: mean(passHatK), tasks: eligible.length });
  }
  return metrics;
}
