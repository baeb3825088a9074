import { compareText } from '../common/compare-text.js';
import type { AgentSummary } from './leaderboard-view.js';

type Rankable = Pick<AgentSummary, 'agent' | 'solveShare' | 'solveShareVoidAsFail' | 'solved' | 'costPerFixUsd'>;

/**
 * Ranking order: share solved (descending; agents whose runs were all void last), then the share
 * with void counted as failed (descending: at an equal share, fewer voids ranks higher, so voids
 * never buy a place), then runs solved (descending), then cost per fix (ascending; unknown cost
 * last), then agent id, so the order never depends on the order of the input.
 */
export function compareAgents(a: Rankable, b: Rankable): number {
  return (
    compareNullable(a.solveShare, b.solveShare, (x, y) => y - x) ||
    b.solveShareVoidAsFail - a.solveShareVoidAsFail ||
    b.solved - a.solved ||
    compareNullable(a.costPerFixUsd, b.costPerFixUsd, (x, y) => x - y) ||
    compareText(a.agent.id, b.agent.id)
  );
}

/**
 * Ranks agents already in {@link compareAgents} order: agents whose score (share solved, and
 * share with void counted as failed) is the same share a rank, the next agent's rank skips past
 * them (1, 2, 2, 4). Shares are compared to 1e-9: a share is a ratio of run or task counts, and
 * two equal ratios computed along different sums must not split a tie by rounding.
 */
export function rankSorted<T extends Rankable>(sorted: readonly T[]): (T & { rank: number; tied: boolean })[] {
  const sameScore = (a: Rankable, b: Rankable): boolean =>
    nearlyEqual(a.solveShare, b.solveShare) && nearlyEqual(a.solveShareVoidAsFail, b.solveShareVoidAsFail);
  let rank = 0;
  return sorted.map((summary, index) => {
    const previous = sorted[index - 1];
    if (previous === undefined || !sameScore(previous, summary)) rank = index + 1;
    const tied = (previous !== undefined && sameScore(previous, summary)) || (index + 1 < sorted.length && sameScore(sorted[index + 1]!, summary));
    return { rank, tied, ...summary };
  });
}

function nearlyEqual(a: number | null, b: number | null): boolean {
  return a === null || b === null ? a === b : Math.abs(a - b) < 1e-9;
}

/** Nulls sort after every number. */
function compareNullable(
  a: number | null,
  b: number | null,
  compare: (x: number, y: number) => number,
): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compare(a, b);
}
