import { EMPTY, formatShare } from './format-cells.js';
import { LEADERBOARD_COLUMNS, type LeaderboardColumn } from './leaderboard-columns.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';

const VOID_AS_FAILED: LeaderboardColumn = {
  header: 'void as failed',
  align: 'right',
  cell: (l) => formatShare(l.solveShareVoidAsFail, null),
};
const TASKS_SOLVED: LeaderboardColumn = {
  header: 'tasks solved',
  align: 'right',
  cell: (l) => (l.replay === null ? EMPTY : `${l.replay.solvedTasks}/${l.replay.validTasks}`),
};
/** Provider-run tools and fetched inputs the agent's model requests asked for (`–` for an agent without a meter). */
export const WEB_ATTEMPTS: LeaderboardColumn = { header: 'web attempts', align: 'right', cell: (l) => (l.webAttempts === null ? EMPTY : String(l.webAttempts)) };
const VOID_TASKS: LeaderboardColumn = { header: 'void tasks', align: 'right', cell: (l) => String(l.voidTasks.length) };
const REPLAYS_AGREE: LeaderboardColumn = {
  header: 'replays agree',
  align: 'right',
  cell: (l) => (l.replay === null ? EMPTY : `${l.replay.agreeing}/${l.replay.compared}`),
};

/**
 * The columns of the text leaderboards for one view: {@link LEADERBOARD_COLUMNS} with the share
 * with void counted as failed beside the share, and, when the controls carry them, void tasks
 * (void limit or replay rule), tasks solved and replay agreement (replay rule), and web
 * attempts after the void count when some agent was metered.
 */
export function columnsForView(view: LeaderboardView): LeaderboardColumn[] {
  const replay = view.replayRule !== null;
  const countsTasks = replay || view.voidLimit !== null;
  const metered = view.agents.some((a) => a.webAttempts !== null);
  return LEADERBOARD_COLUMNS.flatMap((column): LeaderboardColumn[] => {
    switch (column.header) {
      case 'solved':
        return replay ? [column, TASKS_SOLVED] : [column];
      case 'share [95% CI]':
        return [column, VOID_AS_FAILED];
      case 'void':
        return [column, ...(countsTasks ? [VOID_TASKS] : []), ...(replay ? [REPLAYS_AGREE] : []), ...(metered ? [WEB_ATTEMPTS] : [])];
      default:
        return [column];
    }
  });
}
