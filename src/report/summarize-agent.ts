import type { RunRecord, VoidReason } from '../types.js';
import { clusteredShareCi } from './clustered-share-ci.js';
import type { Interval } from './interval.js';
import type { AgentSummary } from './leaderboard-view.js';
import { median } from './median.js';
import { runCountTag } from './run-count-tag.js';
import { wilson } from './wilson.js';

/** Inputs of {@link summarizeAgent}. */
export interface SummarizeAgentInput {
  /** All runs of one agent (at least one). */
  readonly runs: readonly RunRecord[];
  /** Every task of the view, so that a task the agent missed counts as 0 runs. */
  readonly tasks: readonly string[];
  readonly standardRunsPerTask: number;
}

/** One agent's leaderboard line, without its rank. See {@link AgentSummary} for each field. */
export function summarizeAgent(input: SummarizeAgentInput): Omit<AgentSummary, 'rank'> {
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
  const interval = shareInterval(valid, solved);
  const costUsd = sumKnown(runs.map((run) => run.costUsd));
  return {
    agent: first.agent,
    runs: runs.length,
    solved,
    failed: valid.length - solved,
    void: runs.length - valid.length,
    voidByReason,
    validRuns: valid.length,
    solveShare: valid.length === 0 ? null : solved / valid.length,
    solveShareVoidAsFail: solved / runs.length,
    ci95: interval?.ci95 ?? null,
    ciMethod: interval?.method ?? null,
    costUsd,
    runsWithCost: runs.filter((run) => run.costUsd !== null).length,
    costPerFixUsd: costUsd === null || solved === 0 ? null : costUsd / solved,
    medianRunSec: median(valid.map((run) => run.agentSec)),
    medianLinesToReview: median(valid.map((run) => run.linesAdded + run.linesRemoved)),
    tokensIn: sumKnown(runs.map((run) => run.tokensIn)),
    tokensOut: sumKnown(runs.map((run) => run.tokensOut)),
    points: valid.reduce((sum, run) => sum + run.points, 0),
    maxPoints: valid.reduce((sum, run) => sum + run.maxPoints, 0),
    runCountTag: runCountTag(
      input.tasks.map((task) => runs.filter((run) => run.task === task).length),
      input.standardRunsPerTask,
    ),
  };
}

/**
 * Wilson when every task has at most one valid run, else clustered by task. When the
 * clustered standard error is zero or undefined (every run alike, or a single task), the
 * normal interval would collapse to a point and overstate certainty, so Wilson over tasks
 * (each task's share of solved runs, n = tasks) is used instead.
 */
function shareInterval(
  valid: readonly RunRecord[],
  solved: number,
): { method: 'wilson' | 'clustered' | 'wilson-by-task'; ci95: Interval } | null {
  if (valid.length === 0) return null;
  const scoresByTask = new Map<string, number[]>();
  for (const run of valid) {
    const scores = scoresByTask.get(run.task) ?? [];
    scores.push(run.outcome.kind === 'solved' ? 1 : 0);
    scoresByTask.set(run.task, scores);
  }
  const clusters = [...scoresByTask.values()];
  if (clusters.every((scores) => scores.length <= 1)) {
    return { method: 'wilson', ci95: wilson(solved, valid.length) };
  }
  const clustered = clusteredShareCi(clusters);
  if (!(clustered.se > 0)) {
    const taskShares = clusters.map((scores) => scores.reduce((a, b) => a + b, 0) / scores.length);
    return { method: 'wilson-by-task', ci95: wilson(taskShares.reduce((a, b) => a + b, 0), clusters.length) };
  }
  return { method: 'clustered', ci95: clustered.ci95 };
}

/** Sum of the non-null values; null when every value is null. */
function sumKnown(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
}
