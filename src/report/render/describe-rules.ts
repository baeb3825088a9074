import { formatReplayRule } from './format-replay-rule.js';
import { COUNTING_NOTE } from './leaderboard-columns.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';

/** The counting note under a replay rule, where the share is over tasks. */
const REPLAY_COUNTING_NOTE =
  'Share = tasks solved / valid tasks (see the replay rule below). Void tasks and void runs (the ' +
  'instrument broke) are left out of the share, never counted as failed, and the cost of every run ' +
  'is included in cost per fix (cost of all runs / runs solved). 95% interval: Wilson over tasks. ' +
  'Time and lines to review (added + removed, tests included) are medians over non-void runs.';

/**
 * How the numbers of a leaderboard are counted, for the foot of every text rendering: the
 * counting note (over runs, or over tasks under a replay rule), what the share with void
 * counted as failed means, the replay rule (or that there is none) and the void limit. Pure.
 */
export function describeRules(view: LeaderboardView): string[] {
  const rule = view.replayRule;
  const replay =
    rule === null
      ? 'No replay rule: runs are independent samples. Void as failed = runs solved / all runs.'
      : `Replay rule: ${rule.replays} replays per task and agent, allowed drift ${rule.allowedDrift}. A task is void ` +
        `for an agent when one of its replays is void, or when more than ${rule.allowedDrift} of its replays differ ` +
        'from their majority (replay drift); otherwise it counts solved when the majority of its replays solved. ' +
        'Void as failed = tasks solved / tasks; replays agree = tasks within the allowed drift / tasks whose ' +
        'replays were all valid.';
  const limit =
    view.voidLimit === null
      ? 'No void limit.'
      : `Void limit: ${voidTasks(view.voidLimit)} per agent; more, and the report refuses to rank.`;
  return [rule === null ? COUNTING_NOTE : REPLAY_COUNTING_NOTE, replay, limit];
}

/** One line naming the replay rule and the void limit in force. */
export function describeRulesShort(view: LeaderboardView): string {
  const limit = view.voidLimit === null ? 'no void limit' : `void limit: ${voidTasks(view.voidLimit)}`;
  return `${formatReplayRule(view.replayRule)}; ${limit}`;
}

function voidTasks(n: number): string {
  return `${n} void ${n === 1 ? 'task' : 'tasks'}`;
}
