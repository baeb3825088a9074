import { compareText } from '../render/compare-text.js';
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

/** Nulls sort after every number. */
function compareNullable(
  a: number | null,
  b: number | null,
  compare: (x: number, y: number) => number,
): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compare(a, b);
}
