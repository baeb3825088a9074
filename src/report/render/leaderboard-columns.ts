import { formatRank } from './format-rank.js';
import type { AgentSummary } from '../view/leaderboard-view.js';
import {
  EMPTY,
  formatCount,
  formatDuration,
  formatShare,
  formatTokens,
  formatUsd,
} from './format-cells.js';

/** A column of the text leaderboards: header, alignment, and the cell of one agent. */
export interface LeaderboardColumn {
  readonly header: string;
  readonly align: 'left' | 'right';
  readonly cell: (line: AgentSummary) => string;
}

/** `model@effort`, `model`, or `–@effort` when only the effort is known; `gpt-5.5@low (lowest)` when the spec asked for a level by rank. */
function modelAtEffort({ agent, effortRequested }: AgentSummary): string {
  if (agent.effort === null) return agent.model ?? EMPTY;
  return `${agent.model ?? EMPTY}@${agent.effort}${effortRequested === null ? '' : ` (${effortRequested})`}`;
}

/** The columns shared by the terminal table and the markdown table, left to right. */
export const LEADERBOARD_COLUMNS: readonly LeaderboardColumn[] = [
  { header: '#', align: 'right', cell: formatRank },
  { header: 'agent', align: 'left', cell: (l) => l.agent.id },
  { header: 'harness', align: 'left', cell: (l) => l.agent.harness },
  { header: 'version', align: 'left', cell: (l) => l.agent.version ?? EMPTY },
  { header: 'model@effort', align: 'left', cell: modelAtEffort },
  {
    header: 'runs',
    align: 'right',
    cell: (l) => (l.runCountTag === null ? String(l.runs) : `${l.runs} (${l.runCountTag})`),
  },
  { header: 'solved', align: 'right', cell: (l) => String(l.solved) },
  { header: 'points', align: 'right', cell: (l) => (l.maxPoints === 0 ? EMPTY : `${l.points}/${l.maxPoints}`) },
  { header: 'share [95% CI]', align: 'right', cell: (l) => formatShare(l.solveShare, l.ci95) },
  { header: 'void', align: 'right', cell: (l) => String(l.void) },
  { header: 'median time', align: 'right', cell: (l) => formatDuration(l.medianRunSec) },
  { header: 'median lines', align: 'right', cell: (l) => formatCount(l.medianLinesToReview) },
  { header: 'tokens in', align: 'right', cell: (l) => formatTokens(l.tokensIn) },
  { header: 'tokens out', align: 'right', cell: (l) => formatTokens(l.tokensOut) },
  { header: 'cost/fix', align: 'right', cell: (l) => formatUsd(l.costPerFixUsd) },
];

/** One sentence on how the numbers are counted, for the foot of every text leaderboard. */
export const COUNTING_NOTE =
  'Share = runs solved / valid runs. Void runs (the instrument broke) are left out of the share, ' +
  'shown in the void column, never counted as failed, and their cost is included in cost per fix ' +
  '(cost of all runs / runs solved). 95% interval: Wilson when each task has at most one valid ' +
  'run of the agent, else normal with the standard error clustered by task (small-sample factor ' +
  'sqrt(C/(C-1))), or Wilson over tasks when all its runs agree. Time and lines to review (added + removed, tests included) are medians over ' +
  'non-void runs.';
