import type { Interval } from './interval.js';
import { studentTQuantile } from './student-t-quantile.js';

/** Mean per-task difference of two agents' shares solved, with a t interval. */
export interface PairedDifference {
  /** d_t = share solved by A − share solved by B on task t, in input order. */
  readonly byTask: readonly number[];
  /** Mean difference d̄ (positive: A solved more). */
  readonly mean: number;
  /** sd(d) / sqrt(T), with the sample standard deviation (denominator T − 1). */
  readonly se: number;
  /** Degrees of freedom of the t interval: T − 1. */
  readonly df: number;
  /** d̄ ± t(0.975, T − 1) · SE. Not clamped (scores need not be 0/1). */
  readonly ci95: Interval;
}

/**
 * Paired difference of two agents on the same tasks (notes/statistics.md, "Paired comparison";
 * Miller 2024): per task the difference of the mean scores over that task's runs, then a
 * Student-t 95% interval over tasks. Pairing removes task difficulty from the variance.
 *
 * @param aByTask agent A's run scores per task (index t of both arrays is the same task)
 * @param bByTask agent B's run scores per task
 * @throws RangeError when the task counts differ, a task has no runs on one side, or there are
 *   fewer than 2 tasks (no variance to estimate). Exclude void tasks before calling.
 */
export function pairedDifference(
  aByTask: readonly (readonly number[])[],
  bByTask: readonly (readonly number[])[],
): PairedDifference {
  if (aByTask.length !== bByTask.length) {
    throw new RangeError(`pairedDifference: A has ${aByTask.length} tasks, B has ${bByTask.length}`);
  }
  const tasks = aByTask.length;
  if (tasks < 2) throw new RangeError(`pairedDifference: needs at least 2 tasks, got ${tasks}`);
  const byTask = aByTask.map((a, t) => {
    const b = bByTask[t] ?? [];
    if (a.length === 0 || b.length === 0) {
      const side = a.length === 0 ? 'A' : 'B';
      throw new RangeError(`pairedDifference: task index ${t} has no runs for ${side}`);
    }
    return mean(a) - mean(b);
  });
  const d = mean(byTask);
  const variance = byTask.reduce((sum, x) => sum + (x - d) ** 2, 0) / (tasks - 1);
  const se = Math.sqrt(variance / tasks);
  const df = tasks - 1;
  const halfWidth = studentTQuantile(0.975, df) * se;
  return { byTask, mean: d, se, df, ci95: { low: d - halfWidth, high: d + halfWidth } };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((sum, x) => sum + x, 0) / xs.length;
}
