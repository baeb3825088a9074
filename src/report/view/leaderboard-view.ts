import type { BudgetUse } from './budget-use.js';
import type { QuotaReading, QuotaWindow } from './quota-use.js';
import type { MeteringNotes } from './metering-notes.js';
import type { AgentInfo, VoidReason } from '../../types.js';
import type { Interval } from '../stats/interval.js';
import type { Network, ReplayRule } from './read-report-controls.js';
import type { RepeatMetric } from './repeat-metrics.js';
import type { FailureAnatomy, FailureTally } from './failure-anatomy.js';
import type { FailureEvidence } from './failure-evidence.js';

/** Options of {@link summarize}. */
export interface SummarizeOptions {
  /** The suite's standard runs per (task, agent), `controls.runsPerTask`; others get a tag. */
  readonly standardRunsPerTask: number;
  /**
   * The controls in force, passed through untouched to the JSON report. Their `replayRule`
   * switches the share to tasks (see {@link AgentSummary.shareUnit}) and their `voidLimit` may
   * stop the ranking (see {@link LeaderboardView.ranking}).
   */
  readonly controls?: unknown;
  /**
   * Every task the bake planned (the suite's admitted tasks), so an agent that ran on some only
   * is tagged with how many it covered even when no other agent ran the rest; default: the
   * tasks the runs hold.
   */
  readonly tasks?: readonly string[];
  /** Subscription answers' quota headers, stored per request (the store's `quotaReadings`); none: no quota shown. */
  readonly quotaReadings?: readonly QuotaReading[];
  /**
   * Run id → what the store and artifacts hold about a run that was not solved (the api reads it);
   * absent: failures are classed from the run records alone (see classifyFailure).
   */
  readonly evidence?: ReadonlyMap<string, FailureEvidence>;
}

/** A task that is void for one agent. */
export interface VoidTaskSummary {
  readonly task: string;
  readonly reason: VoidReason;
  /** One line for people, e.g. `replays disagree: 1 solved, 1 failed (allowed drift 0)`. */
  readonly detail: string;
}

/** How one agent's replays agreed, under a replay rule. */
export interface ReplaySummary {
  /** Tasks with at least 2 replays, none void: the ones whose agreement could be judged. */
  readonly compared: number;
  /** Compared tasks whose replays agree within the allowed drift (the rest are void: replay drift). */
  readonly agreeing: number;
  /** Tasks not void for this agent: the denominator of `solveShare`. */
  readonly validTasks: number;
  /** Valid tasks whose replays agree on solved: the numerator of `solveShare`. */
  readonly solvedTasks: number;
}

/** Whether the view may be read as a ranking. */
export type Ranking =
  | { readonly refused: false }
  | {
      readonly refused: true;
      /** Why, for people: the void limit and the agents over it, with their void tasks per reason. */
      readonly reason: string;
    };

/** One agent's line of the leaderboard. Shares and sums are over that agent's runs only. */
export interface AgentSummary {
  /**
   * 1-based standard competition rank ("1224"): one more than the number of agents with a higher
   * score. Agents with the same share solved and the same share with void counted as failed have
   * the same rank (`tied`); the order within them (runs solved, cost per fix, id) is only the
   * order of the lines. Null when the ranking was refused (`LeaderboardView.ranking`).
   */
  readonly rank: number | null;
  /** Another agent has the same rank. False when the ranking was refused. */
  readonly tied: boolean;
  /** Identity as recorded with the agent's first run (see `LeaderboardView.mixed`). */
  readonly agent: AgentInfo;
  /**
   * The effort as the spec wrote it when it named a level by rank (`lowest`, `highest`) and the
   * catalog resolved it to another name (`agent.effort`); null otherwise.
   */
  readonly effortRequested: string | null;
  /** All runs, void included. */
  readonly runs: number;
  readonly solved: number;
  readonly failed: number;
  /** Void runs: the instrument broke. Excluded from the share, never counted as failed. */
  readonly void: number;
  /** Void runs per reason; reasons that did not occur are absent. */
  readonly voidByReason: Readonly<Partial<Record<VoidReason, number>>>;
  /** runs − void. */
  readonly validRuns: number;
  /**
   * The ranking key; null when there is nothing valid to divide by. Unit `run`: solved /
   * validRuns. Unit `task`: `replay.solvedTasks / replay.validTasks`.
   */
  readonly solveShare: number | null;
  /**
   * The share if void counted as failed, for a sensitivity check. Unit `run`: solved / runs.
   * Unit `task`: `replay.solvedTasks / tasks`.
   */
  readonly solveShareVoidAsFail: number;
  /**
   * What the share counts: `run` (runs are independent samples) or `task` (under a replay rule
   * the replays of a task give it one outcome).
   */
  readonly shareUnit: 'run' | 'task';
  /** Tasks this agent ran at least once. */
  readonly tasks: number;
  /**
   * Tasks void for this agent, sorted by task: under a replay rule, those with a void replay or
   * replay drift; without one, those whose every run was void. What the void limit counts.
   */
  readonly voidTasks: readonly VoidTaskSummary[];
  /** `voidTasks` per reason; reasons that did not occur are absent. */
  readonly voidTasksByReason: Readonly<Partial<Record<VoidReason, number>>>;
  /** Replay agreement and the task counts behind the share; null without a replay rule. */
  readonly replay: ReplaySummary | null;
  /** 95% interval for `solveShare`; null with it. */
  readonly ci95: Interval | null;
  /**
   * `wilson` when no task has more than one valid run of this agent (runs are independent),
   * `clustered` otherwise (clustered by task, with small-sample factor; see clusteredShareCi),
   * `wilson-by-task` (Wilson over tasks) when every run agrees or under a replay rule (one
   * outcome per task). Null with `ci95`.
   */
  readonly ciMethod: 'wilson' | 'clustered' | 'wilson-by-task' | null;
  /** Sum of costUsd over all runs (void and failed included); null when no run has cost data. */
  readonly costUsd: number | null;
  /** Runs that carry cost data; when below `runs`, `costUsd` understates the true cost. */
  readonly runsWithCost: number;
  /** costUsd / solved; null when there is no cost data or no solved run. */
  readonly costPerFixUsd: number | null;
  /** Median agentSec over non-void runs; null when every run was void. */
  readonly medianRunSec: number | null;
  /** Median linesAdded + linesRemoved over non-void runs; null when every run was void. */
  readonly medianLinesToReview: number | null;
  /** Sum over all runs that report tokens; null when no run does. */
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
  /**
   * Web attempts over all runs: the provider-run tools and fetched inputs its model requests
   * asked for (RunRecord.webAttempts), withheld at the proxy on the closed web, let through on
   * the open web; null when no run was metered.
   */
  readonly webAttempts: number | null;
  /** Sums of points / maxPoints over non-void runs. */
  readonly points: number;
  readonly maxPoints: number;
  /**
   * Null when this agent has exactly the standard number of runs on every task of the view,
   * else e.g. `3 runs/task` or `1–2 runs/task` (a task without runs counts as 0).
   */
  readonly runCountTag: string | null;
  /**
   * pass@k and pass^k for k = 1 … the standard runs per task (fewer when no task has k valid
   * runs), averaged over tasks: how often one of k attempts solves, and how often all k do.
   */
  readonly repeats: readonly RepeatMetric[];
  /** The agent's runs that were not solved, by failure class and side (failure anatomy; void runs included). */
  readonly failures: FailureTally;
}

/** Runs of one agent on one task. */
export interface TaskCell {
  readonly agentId: string;
  readonly runs: number;
  readonly solved: number;
  readonly failed: number;
  readonly void: number;
  /** Points per order summed over the cell's non-void runs: `[order 1, order 2, …]`. */
  readonly orderPoints: readonly { readonly points: number; readonly maxPoints: number }[];
}

/** One task's row of the task × agent matrix. */
export interface TaskRow {
  readonly task: string;
  /** One cell per agent, in the order of `LeaderboardView.agents`. */
  readonly cells: readonly TaskCell[];
}

/** Runs that must not be compared side by side (DESIGN.md §6). */
export interface MixedProblem {
  /**
   * What differs: `suiteId`, `suiteHash`, `controlsDigest`, `level`, `runtime.<key>` or
   * `agent:<id>` (one agent id recorded with different harness, version, model or effort).
   */
  readonly field: string;
  /** The distinct values seen, sorted (`null` and absent runtime keys shown as `(none)`). */
  readonly values: readonly string[];
}

/** Everything a renderer needs to draw the leaderboard; built by {@link summarize}. */
export interface LeaderboardView {
  /** From the first run; null when there are no runs. */
  readonly suite: { readonly id: string; readonly hash: string } | null;
  /** From the first run; null when there are no runs. */
  readonly controlsDigest: string | null;
  /** `SummarizeOptions.controls`, untouched (undefined when not given). */
  readonly controls: unknown;
  readonly standardRunsPerTask: number;
  /** From the controls; null without one (runs are independent samples). */
  readonly replayRule: ReplayRule | null;
  /** From the controls; null without one (no limit). */
  readonly voidLimit: number | null;
  /** From the controls: `none` (the closed web) or `model-api+web` (the open web); null when not one control set. */
  readonly network: Network | null;
  /** Refused when some agent has more void tasks than `voidLimit`. */
  readonly ranking: Ranking;
  /** In rank order; sorted by agent id instead when the ranking was refused. */
  readonly agents: readonly AgentSummary[];
  /** Tasks with at least one run, sorted by id. */
  readonly tasks: readonly TaskRow[];
  /** Empty when all runs are comparable; callers must refuse to render otherwise. */
  readonly mixed: readonly MixedProblem[];
  /** Sandboxes the runs were made in (`runtime.sandbox`), sorted; `unsafe-no-sandbox` means none. */
  readonly sandboxes: readonly string[];
  /** Runs made with `--unsafe-no-sandbox`: every rendering warns about them. */
  readonly unsafeRuns: number;
  /** How model agents' tokens and cost were measured. */
  readonly metering: MeteringNotes;
  /** The controls' agent time budget and what each agent's passes spent of it; null/absent without a budget. */
  readonly budget?: BudgetUse | null;
  /** What the subscription agents' plans said of the quota used, per window; absent or empty without readings. */
  readonly quota?: readonly QuotaWindow[];
  /** Why each run that was not solved was not: its failure class (versioned). */
  readonly failureAnatomy: FailureAnatomy;
}
