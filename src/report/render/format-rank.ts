import { EMPTY } from './format-cells.js';
import type { AgentSummary } from '../view/leaderboard-view.js';

/** An agent's rank as every leaderboard shows it: `3`, `=2` when tied, `–` when not ranked. */
export function formatRank(line: Pick<AgentSummary, 'rank' | 'tied'>): string {
  if (line.rank === null) return EMPTY;
  return line.tied ? `=${line.rank}` : String(line.rank);
}
