import type { LeaderboardRun, VoidReason } from '../../types.js';
import { sumOrNull } from '../../util/index.js';
import { clusteredShareCi } from '../stats/clustered-share-ci.js';
import type { Interval } from '../stats/interval.js';
import type { AgentSummary, ReplaySummary, VoidTaskSummary } from './leaderboard-view.js';
import { median } from '../stats/median.js';
import type { ReplayRule } from './read-report-controls.js';
import { runCountTag } from '../common/run-count-tag.js';
import { repeatMetrics } from './repeat-metrics.js';
import type { TaskScore } from './score-tasks.js';
import type { FailureTally } from './failure-anatomy.js';
import { wilson } from '../stats/wilson.js';

/** Inputs of {@link summarizeAgent}. */
export interface SummarizeAgentInput {
  /** All runs of one agent (at least one). */
  readonly runs: readonly LeaderboardRun[];
  /** Every task of the view, so that a task the agent missed counts as 0 runs. */
  readonly tasks: readonly string[];
  readonly standardRunsPerTask: number;
  /** The agent's tasks, scored by {@link scoreTasks} under the same replay rule. */
  readonly taskScores: readonly TaskScore[];
  /** Null: runs are independent samples and the share is over runs; else over tasks. */
  readonly replayRule: ReplayRule | null;
  /** The agent's runs that were not solved, by failure class. */
  readonly failures: FailureTally;
}

/** One agent's leaderboard line, without its rank. See {@link AgentSummary} for each field. */
export function summarizeAgent(input: SummarizeAgentInput): Omit<AgentSummary, 'rank' | 'tied'> {
  const { runs } = input;
  const first = runs[0];
  if (first === undefined) throw new RangeError('summarizeAgent: no runs');
  const valid = runs.filter((run) => run.outcome.kind !== 'void');
  const solved = valid.filter((run) => run.outcome.kind === 'solved').length;
  const voidByReason: Partial<Record<VoidReason, number>> = {};
  for (const run of runs) {
    if (run.outcome.kind === 'void') {
      voidByReason[run.outcome.reason] = (voidByReason[run.outcome.reason] ?? 0) + 1;
    }
  }
  const byTask = summarizeTasks(input.taskScores, input.replayRule);
  const scoresByTask = validScoresByTask(valid);
  const interval = byTask.replay === null ? shareInterval(scoresByTask, solved, valid.length) : taskShareInterval(byTask.replay);
  const costUsd = sumOrNull(runs.map((run) => run.costUsd));
  const asked = first.effortCatalog?.requested ?? null;
  return {
    agent: first.agent,
    effortRequested: asked !== null && asked !== first.effortCatalog?.resolved ? asked : null,
    runs: runs.length,
    solved,
    failed: valid.length - solved,
    void: runs.length - valid.length,
    voidByReason,
    validRuns: valid.length,
    ...byTask,
    ...(byTask.replay === null
      ? { solveShare: valid.length === 0 ? null : solved / valid.length, solveShareVoidAsFail: solved / runs.length }
      : {
          solveShare: byTask.replay.validTasks === 0 ? null : byTask.replay.solvedTasks / byTask.replay.validTasks,
          solveShareVoidAsFail: byTask.tasks === 0 ? 0 : byTask.replay.solvedTasks / byTask.tasks,
        }),
    ci95: interval?.ci95 ?? null,
    ciMethod: interval?.method ?? null,
    costUsd,
    runsWithCost: runs.filter((run) => run.costUsd !== null).length,
    costPerFixUsd: costUsd === null || solved === 0 ? null : costUsd / solved,
    medianRunSec: median(valid.map((run) => run.agentSec)),
    medianLinesToReview: median(valid.map((run) => run.linesAdded + run.linesRemoved)),
    tokensIn: sumOrNull(runs.map((run) => run.tokensIn)),
    tokensOut: sumOrNull(runs.map((run) => run.tokensOut)),
    webAttempts: sumOrNull(runs.map((run) => run.webAttempts ?? null)),
    points: valid.reduce((sum, run) => sum + run.points, 0),
    maxPoints: valid.reduce((sum, run) => sum + run.maxPoints, 0),
    runCountTag: runCountTag(
      countPerTask(input.tasks, runs),
      input.standardRunsPerTask,
    ),
    repeats: repeatMetrics(scoresByTask, input.standardRunsPerTask),
    failures: input.failures,
  };
}

type TaskFields = Pick<AgentSummary, 'shareUnit' | 'tasks' | 'voidTasks' | 'voidTasksByReason' | 'replay'>;

/** Void tasks for everyone; replay agreement and the task share's counts under a replay rule. */
function summarizeTasks(scores: readonly TaskScore[], replayRule: ReplayRule | null): TaskFields {
  const voidTasks: VoidTaskSummary[] = [];
  const voidTasksByReason: Partial<Record<VoidReason, number>> = {};
  for (const score of scores) {
    if (score.kind !== 'void') continue;
    voidTasks.push({ task: score.task, reason: score.reason, detail: score.detail });
    voidTasksByReason[score.reason] = (voidTasksByReason[score.reason] ?? 0) + 1;
  }
  const base = { tasks: scores.length, voidTasks, voidTasksByReason };
  if (replayRule === null) return { ...base, shareUnit: 'run', replay: null };
  const agreeing = scores.filter((s) => s.kind === 'scored' && s.agreement === 'agree').length;
  const replay: ReplaySummary = {
    compared: agreeing + (voidTasksByReason['replay-drift'] ?? 0),
    agreeing,
    validTasks: scores.length - voidTasks.length,
    solvedTasks: scores.filter((s) => s.kind === 'scored' && s.share === 1).length,
  };
  return { ...base, shareUnit: 'task', replay };
}

/** Under a replay rule each valid task is one 0/1 outcome: Wilson over tasks. */
function taskShareInterval(replay: ReplaySummary): { method: 'wilson-by-task'; ci95: Interval } | null {
  if (replay.validTasks === 0) return null;
  return { method: 'wilson-by-task', ci95: wilson(replay.solvedTasks, replay.validTasks) };
}

/**
 * Wilson when every task has at most one valid run, else clustered by task. When the
 * clustered standard error is zero or undefined (every run alike, or a single task), the
 * normal interval would collapse to a point and overstate certainty, so Wilson over tasks
 * (each task's share of solved runs, n = tasks) is used instead.
 */
function shareInterval(
  clusters: readonly (readonly number[])[],
  solved: number,
  validRuns: number,
): { method: 'wilson' | 'clustered' | 'wilson-by-task'; ci95: Interval } | null {
  if (validRuns === 0) return null;
  if (clusters.every((scores) => scores.length <= 1)) {
    return { method: 'wilson', ci95: wilson(solved, validRuns) };
  }
  const clustered = clusteredShareCi(clusters);
  if (!(clustered.se > 0)) {
    const taskShares = clusters.map((scores) => scores.reduce((a, b) => a + b, 0) / scores.length);
    return { method: 'wilson-by-task', ci95: wilson(taskShares.reduce((a, b) => a + b, 0), clusters.length) };
  }
  return { method: 'clustered', ci95: clustered.ci95 };
}

/** The valid runs' scores (1 solved, 0 failed) grouped by task: the interval's clusters and the repeats' samples. */
function validScoresByTask(valid: readonly LeaderboardRun[]): number[][] {
  const scoresByTask = new Map<string, number[]>();
  for (const run of valid) {
    const scores = scoresByTask.get(run.task) ?? [];
    scores.push(run.outcome.kind === 'solved' ? 1 : 0);
    scoresByTask.set(run.task, scores);
  }
  return [...scoresByTask.values()];
}

/** Sum of the non-null values; null when every value is null. */
/** How many of `runs` each task has, in the order of `tasks` (one pass over the runs). */
function countPerTask(tasks: readonly string[], runs: readonly LeaderboardRun[]): number[] {
  const counts = new Map<string, number>();
  for (const run of runs) counts.set(run.task, (counts.get(run.task) ?? 0) + 1);
  return tasks.map((task) => counts.get(task) ?? 0);
}
