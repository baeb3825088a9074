import type { LeaderboardRun, VoidReason } from '../../types.js';
import { compareText } from '../common/compare-text.js';
import type { ReplayRule } from './read-report-controls.js';

/**
 * One agent's standing on one task: the unit of paired comparison and of the void limit, and,
 * under a replay rule, of the share solved.
 */
export type TaskScore = ScoredTask | VoidTask;

/** A task the agent has a score on. */
export interface ScoredTask {
  readonly kind: 'scored';
  readonly task: string;
  /** Runs (replays) of the agent on the task, void ones included. */
  readonly runs: number;
  /**
   * Share solved on the task, in [0, 1]. Without a replay rule: valid runs solved / valid runs.
   * Under a replay rule: 1 when the majority of the replays solved, else 0 (a tie, possible only
   * when the allowed drift is at least half the replays, is not a solve).
   */
  readonly share: number;
  /**
   * What a paired difference averages for this task: one 0/1 per valid run without a replay
   * rule (their mean is `share`), or `[share]` under one (the task is the unit).
   */
  readonly scores: readonly number[];
  /**
   * Replay rule only: `agree` when at least 2 replays were compared and differ from their
   * majority by no more than the allowed drift; `single` when the task had one replay, so
   * nothing could be compared. Null without a replay rule.
   */
  readonly agreement: 'agree' | 'single' | null;
}

/** A task that is void for the agent: the instrument broke, never a loss. */
export interface VoidTask {
  readonly kind: 'void';
  readonly task: string;
  readonly runs: number;
  /**
   * Without a replay rule: every run was void, and this is the first one's reason. Under a replay
   * rule: the reason of the first void replay, or `replay-drift` when the replays disagree.
   */
  readonly reason: VoidReason;
  /** One line for people, e.g. `replays disagree: 1 solved, 1 failed (allowed drift 0)`. */
  readonly detail: string;
}

/**
 * Score every task one agent ran (DESIGN.md §1 item 2). Without a replay rule the runs of a task
 * are independent samples: the task is void only when every run was void. Under a replay rule
 * the runs of a task are its replays: a void replay voids the task (with that replay's reason),
 * and so do replays whose outcomes differ from their majority in more than `allowedDrift` runs
 * (reason `replay-drift`). Pure.
 *
 * @param runs the runs of one agent (any order)
 * @returns one score per task, sorted by task id
 */
export function scoreTasks(runs: readonly LeaderboardRun[], replayRule: ReplayRule | null): TaskScore[] {
  const agent = runs[0]?.agent.id;
  const byTask = new Map<string, LeaderboardRun[]>();
  for (const run of runs) {
    if (run.agent.id !== agent) throw new RangeError('scoreTasks: the runs of one agent only');
    const taskRuns = byTask.get(run.task);
    if (taskRuns) taskRuns.push(run);
    else byTask.set(run.task, [run]);
  }
  return [...byTask]
    .sort(([a], [b]) => compareText(a, b))
    .map(([task, taskRuns]) => {
      const replays = [...taskRuns].sort((a, b) => a.replay - b.replay || compareText(a.id, b.id));
      return replayRule === null ? scoreSamples(task, replays) : scoreReplays(task, replays, replayRule);
    });
}

function scoreSamples(task: string, runs: readonly LeaderboardRun[]): TaskScore {
  const scores = runs.flatMap((run) => (run.outcome.kind === 'void' ? [] : [run.outcome.kind === 'solved' ? 1 : 0]));
  const firstVoid = runs.find((run) => run.outcome.kind === 'void')?.outcome;
  if (scores.length === 0 && firstVoid?.kind === 'void') {
    return { kind: 'void', task, runs: runs.length, reason: firstVoid.reason, detail: `every run void (${countReasons(runs)})` };
  }
  const share = scores.reduce((sum, score) => sum + score, 0) / scores.length;
  return { kind: 'scored', task, runs: runs.length, share, scores, agreement: null };
}

function scoreReplays(task: string, replays: readonly LeaderboardRun[], rule: ReplayRule): TaskScore {
  const voidReplay = replays.find((run) => run.outcome.kind === 'void');
  if (voidReplay?.outcome.kind === 'void') {
    const { reason, detail } = voidReplay.outcome;
    const which = `replay ${voidReplay.replay + 1} of ${replays.length} void (${reason}${detail ? `: ${detail}` : ''})`;
    return { kind: 'void', task, runs: replays.length, reason, detail: which };
  }
  const solved = replays.filter((run) => run.outcome.kind === 'solved').length;
  const failed = replays.length - solved;
  if (Math.min(solved, failed) > rule.allowedDrift) {
    const detail = `replays disagree: ${solved} solved, ${failed} failed (allowed drift ${rule.allowedDrift})`;
    return { kind: 'void', task, runs: replays.length, reason: 'replay-drift', detail };
  }
  const share = solved > failed ? 1 : 0;
  return { kind: 'scored', task, runs: replays.length, share, scores: [share], agreement: replays.length >= 2 ? 'agree' : 'single' };
}

/** `infra-error 2, setup-failed 1`, in order of first appearance. */
function countReasons(runs: readonly LeaderboardRun[]): string {
  const counts = new Map<string, number>();
  for (const run of runs) {
    if (run.outcome.kind === 'void') counts.set(run.outcome.reason, (counts.get(run.outcome.reason) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => `${reason} ${count}`).join(', ');
}
