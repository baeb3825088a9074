import { PASS_STOPPING_VOIDS, type Outcome, type LeaderboardRun } from '../../types.js';
import { compareText } from '../common/compare-text.js';

/** How much of the controls' agent time budget each pass spent (sessions only, never grading). */
export interface BudgetUse {
  readonly totalSec: number;
  /** `replay`: one budget per agent for each pass over the whole suite; `run`: one per run. */
  readonly scope: 'run' | 'replay';
  /** `agentBudget.stopOnError`: a timeout or error stops its pass and leaves the pass unscored. */
  readonly stopOnError: boolean;
  /**
   * Per agent and pass (`replay`; for scope `run`, per run): the session seconds spent and the
   * runs they cover, sorted; `stoppedBy` names the run that stopped the pass (stopOnError), else null.
   */
  readonly passes: readonly {
    readonly agent: string;
    readonly replay: number;
    readonly runs: number;
    readonly usedSec: number;
    readonly overBudget: boolean;
    readonly stoppedBy: { readonly task: string; readonly reason: string } | null;
  }[];
}

interface StopControls {
  readonly totalSec: number;
  readonly scope: 'run' | 'replay';
  readonly stopOnError: boolean;
}

function readBudget(controls: unknown): StopControls | null {
  const raw = (controls as { agentBudget?: { totalSec?: unknown; scope?: unknown; stopOnError?: unknown } } | null)?.agentBudget;
  if (!raw || typeof raw.totalSec !== 'number' || (raw.scope !== 'run' && raw.scope !== 'replay')) return null;
  return { totalSec: raw.totalSec, scope: raw.scope, stopOnError: raw.stopOnError === true && raw.scope === 'replay' };
}

/** Whether a run's outcome stops its pass under `agentBudget.stopOnError`: a timeout, an error event, no answer. Pure. */
export function stopsPass(outcome: Outcome): boolean {
  return (outcome.kind === 'failed' && outcome.reason === 'session-timeout') || (outcome.kind === 'void' && PASS_STOPPING_VOIDS.includes(outcome.reason));
}

/** The sentence a stopped pass's runs carry: which run stopped it, and why. */
export function stoppedSentence(run: Pick<LeaderboardRun, 'agent' | 'replay' | 'task' | 'outcome'>): string {
  const reason = run.outcome.kind === 'solved' ? 'solved' : run.outcome.reason;
  return `pass ${run.replay + 1} of ${run.agent.id} stopped at task ${run.task} (${reason}): controls.agentBudget.stopOnError stops the pass and leaves it unscored`;
}

const passKey = (run: LeaderboardRun) => `${run.agent.id}\u0000${run.replay}`;

/** The first run (by start) that stopped each pass, under stopOnError. */
function stoppers(runs: readonly LeaderboardRun[]): Map<string, LeaderboardRun> {
  const first = new Map<string, LeaderboardRun>();
  for (const run of [...runs].sort((a, b) => compareText(a.startedAt, b.startedAt) || compareText(a.id, b.id))) {
    if (stopsPass(run.outcome) && !first.has(passKey(run))) first.set(passKey(run), run);
  }
  return first;
}

/**
 * The runs as a report scores them: under `agentBudget.stopOnError` every run of a pass that a
 * timeout or an error stopped counts as void `pass-stopped` (the pass's total is unscored), the
 * runs that finished before the stop included. Other runs, and every run without the rule, are
 * returned as they are. Pure.
 */
export function scoredRuns<R extends LeaderboardRun>(runs: readonly R[], controls: unknown): readonly R[] {
  if (!readBudget(controls)?.stopOnError) return runs;
  const stopped = stoppers(runs);
  if (stopped.size === 0) return runs;
  return runs.map((run) => {
    const by = stopped.get(passKey(run));
    // a void run keeps its own reason (the stopper's error, or pass-stopped as recorded)
    if (!by || run.outcome.kind === 'void') return run;
    return { ...run, outcome: { kind: 'void', reason: 'pass-stopped', detail: stoppedSentence(by) } } as R;
  });
}

/** The agent time budget of stored controls and what each pass of each agent spent of it; null without a budget. Pure. */
export function budgetUse(runs: readonly LeaderboardRun[], controls: unknown): BudgetUse | null {
  const budget = readBudget(controls);
  if (!budget) return null;
  const { totalSec, scope, stopOnError } = budget;
  const stopped = stopOnError ? stoppers(runs) : new Map<string, LeaderboardRun>();
  const sums = new Map<string, { agent: string; replay: number; runs: number; usedSec: number; stoppedBy: { task: string; reason: string } | null }>();
  for (const run of runs) {
    const key = scope === 'replay' ? passKey(run) : run.id;
    const by = scope === 'replay' ? stopped.get(key) : undefined;
    const slot = sums.get(key) ?? { agent: run.agent.id, replay: run.replay, runs: 0, usedSec: 0, stoppedBy: by && by.outcome.kind !== 'solved' ? { task: by.task, reason: by.outcome.reason } : null };
    slot.runs++;
    slot.usedSec += run.agentSec;
    sums.set(key, slot);
  }
  const passes = [...sums.values()]
    .map((p) => ({ ...p, usedSec: Math.round(p.usedSec * 10) / 10, overBudget: p.usedSec > totalSec }))
    .sort((a, b) => compareText(a.agent, b.agent) || a.replay - b.replay);
  return { totalSec, scope, stopOnError, passes };
}

/** One sentence per agent: the budget and what its passes spent. */
export function describeBudget(use: BudgetUse | null | undefined): string[] {
  if (!use) return [];
  const agents = [...new Set(use.passes.map((p) => p.agent))];
  const per = use.scope === 'replay' ? 'per agent for each pass over the suite' : 'per run';
  const rule = use.stopOnError ? ' A timeout or an error stops its pass and leaves the pass unscored.' : '';
  return [
    `Agent time budget: ${use.totalSec} s of session time ${per} (grading outside it).${rule}`,
    ...agents.map((agent) => {
      const mine = use.passes.filter((p) => p.agent === agent);
      const spent = mine
        .map((p) => {
          const which = use.scope === 'replay' ? `pass ${p.replay + 1}` : `a run of pass ${p.replay + 1}`;
          const stop = p.stoppedBy ? ` (stopped at task ${p.stoppedBy.task}, ${p.stoppedBy.reason}: unscored)` : '';
          return `${which}: ${p.usedSec.toFixed(1)} s${stop}`;
        })
        .join(', ');
      return `  ${agent} used ${spent}.`;
    }),
  ];
}
