import type { LeaderboardView } from './leaderboard-view.js';

/**
 * Sentences for the foot of every text leaderboard on what the share with void counted as
 * failed means, the replay rule (or that there is none) and the void limit. Pure.
 */
export function describeRules(view: LeaderboardView): string[] {
  const rule = view.replayRule;
  const replay =
    rule === null
      ? 'No replay rule: runs are independent samples. Void as failed = runs solved / all runs.'
      : `Replay rule: ${rule.replays} replays per task and agent, allowed drift ${rule.allowedDrift}. A task is void ` +
        `for an agent when one of its replays is void, or when more than ${rule.allowedDrift} of its replays differ ` +
        'from their majority (replay drift); otherwise it counts solved when the majority of its replays solved. ' +
        'Share = tasks solved / valid tasks, with a Wilson interval over tasks; void as failed = tasks solved / tasks; ' +
        'replays agree = tasks within the allowed drift / tasks whose replays were all valid.';
  const limit =
    view.voidLimit === null
      ? 'No void limit.'
      : `Void limit: ${view.voidLimit} void task(s) per agent; more, and the report refuses to rank.`;
  return [replay, limit];
}

/** One line naming the replay rule and the void limit in force. */
export function describeRulesShort(view: LeaderboardView): string {
  const rule = view.replayRule;
  const replay = rule === null ? 'no replay rule' : `replay rule ${rule.replays} replays, allowed drift ${rule.allowedDrift}`;
  const limit = view.voidLimit === null ? 'no void limit' : `void limit ${view.voidLimit} tasks`;
  return `${replay}  ${limit}`;
}
