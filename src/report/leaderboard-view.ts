import type { AgentInfo, VoidReason } from '../types.js';
import type { Interval } from './interval.js';

/** Options of {@link summarize}. */
export interface SummarizeOptions {
  /** The suite's standard runs per (task, agent), `controls.runsPerTask`; others get a tag. */
  readonly standardRunsPerTask: number;
  /** The controls in force, passed through untouched to the JSON report. */
  readonly controls?: unknown;
}

/** One agent's line of the leaderboard. Shares and sums are over that agent's runs only. */
export interface AgentSummary {
  /** 1-based position in the ranking (unique; ties are broken, see `summarize`). */
  readonly rank: number;
  /** Identity as recorded with the agent's first run (see `LeaderboardView.mixed`). */
  readonly agent: AgentInfo;
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
  /** solved / validRuns; null when every run was void. The ranking key. */
  readonly solveShare: number | null;
  /** solved / runs: the share if void runs counted as failed, for a sensitivity check. */
  readonly solveShareVoidAsFail: number;
  /** 95% interval for `solveShare`; null when every run was void. */
  readonly ci95: Interval | null;
  /**
   * `wilson` when no task has more than one valid run of this agent (runs are independent),
   * `clustered` otherwise (clustered by task, with small-sample factor; see clusteredShareCi).
   * Null with `ci95`.
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
  /** Sums of points / maxPoints over non-void runs. */
  readonly points: number;
  readonly maxPoints: number;
  /**
   * Null when this agent has exactly the standard number of runs on every task of the view,
   * else e.g. `3 runs/task` or `1–2 runs/task` (a task without runs counts as 0).
   */
  readonly runCountTag: string | null;
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
  /** In rank order. */
  readonly agents: readonly AgentSummary[];
  /** Tasks with at least one run, sorted by id. */
  readonly tasks: readonly TaskRow[];
  /** Empty when all runs are comparable; callers must refuse to render otherwise. */
  readonly mixed: readonly MixedProblem[];
  /** Sandboxes the runs were made in (`runtime.sandbox`), sorted; `unsafe-no-sandbox` means none. */
  readonly sandboxes: readonly string[];
  /** Runs made with `--unsafe-no-sandbox`: every rendering warns about them. */
  readonly unsafeRuns: number;
}
