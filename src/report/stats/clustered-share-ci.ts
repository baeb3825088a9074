import { clampInterval, Z_95, type Interval } from './interval.js';

/** Share of runs solved with a task-clustered standard error. */
export interface ClusteredShareCi {
  /** Σ scores / N over all runs. */
  readonly share: number;
  /**
   * Clustered SE **with** the small-sample factor sqrt(C/(C−1)); this is the SE behind `ci95`.
   * NaN when there is only one cluster (the variance between tasks cannot be estimated).
   */
  readonly se: number;
  /** Clustered SE without the small-sample factor (Miller 2024, eq. for clustered SE). */
  readonly seUncorrected: number;
  /** Naive SE sqrt(p(1−p)/N), which treats runs of one task as independent; for comparison. */
  readonly seNaive: number;
  /** share ± z·se, clamped to [0, 1]; [0, 1] when `se` is NaN (one cluster). */
  readonly ci95: Interval;
  /** Number of clusters (tasks with at least one run) C. */
  readonly clusters: number;
  /** Number of runs N. */
  readonly runs: number;
}

/**
 * Share solved with a 95% interval when a task has several runs (notes/statistics.md, "Several
 * runs per task"; Miller, "Adding Error Bars to Evals", arXiv 2411.00640). Runs of one task are
 * not independent, so the SE is clustered by task:
 *
 *   SE = sqrt( Σ_c (Σ_{i∈c} (s_i − p̂))² ) / N × sqrt(C / (C − 1))
 *
 * We use the version **with** the small-sample factor sqrt(C/(C−1)) (wider, the honest choice for
 * suites of 20–30 tasks). The interval is the normal one, p̂ ± z·SE, clamped to [0, 1]. Note that
 * it collapses to a point when every run has the same score (SE = 0).
 *
 * @param scoresByTask one array of run scores (0/1, or any value in [0, 1]) per task; tasks
 *   with no runs are ignored
 * @throws RangeError when there are no runs at all
 */
export function clusteredShareCi(scoresByTask: readonly (readonly number[])[]): ClusteredShareCi {
  const clustersWithRuns = scoresByTask.filter((scores) => scores.length > 0);
  const runs = clustersWithRuns.reduce((sum, scores) => sum + scores.length, 0);
  if (runs === 0) throw new RangeError('clusteredShareCi: no runs');
  const share = clustersWithRuns.flat().reduce((sum, s) => sum + s, 0) / runs;

  let sumOfSquares = 0;
  for (const scores of clustersWithRuns) {
    const residual = scores.reduce((sum, s) => sum + (s - share), 0);
    sumOfSquares += residual * residual;
  }
  const clusters = clustersWithRuns.length;
  const seUncorrected = Math.sqrt(sumOfSquares) / runs;
  const se = clusters > 1 ? seUncorrected * Math.sqrt(clusters / (clusters - 1)) : Number.NaN;
  const seNaive = Math.sqrt((share * (1 - share)) / runs);
  const ci95 = Number.isNaN(se)
    ? { low: 0, high: 1 }
    : clampInterval({ low: share - Z_95 * se, high: share + Z_95 * se });
  return { share, se, seUncorrected, seNaive, ci95, clusters, runs };
}
