import type { RunRecord } from '../types.js';
import { stoppedSentence, stopsPass } from '../report/view/budget-use.js';
import type { Controls } from '../suite/index.js';

/** Agent time left to spend (sessions only, never grading); shared by the runs of its scope. */
export interface Budget {
  /** Milliseconds left, Infinity when unlimited. */
  remainingMs(): number;
  spend(ms: number): void;
}

export function createBudget(totalSec: number | null): Budget {
  let left = totalSec === null ? Infinity : totalSec * 1000;
  return {
    remainingMs: () => Math.max(0, left),
    spend: (ms) => {
      left -= ms;
    },
  };
}

/** One agent's pass over the suite (one replay): the budget its runs share, and what stopped it. */
export interface Pass {
  readonly budget: Budget;
  /** Under `agentBudget.stopOnError`: why the pass's later runs do not start; null while it goes on. */
  stoppedBy: string | null;
}

/**
 * The passes of a bake, keyed by agent id and replay (scope `replay`; a scope `run` budget is
 * each run's own). Seeded from the runs the results folder already holds, so a resumed bake
 * spends only what its passes had left and a pass stopped before the kill stays stopped.
 */
export function createPasses(controls: Pick<Controls, 'agentBudget'>, recorded: readonly RunRecord[]): (agentId: string, replay: number) => Pass {
  const b = controls.agentBudget;
  const passes = new Map<string, Pass>();
  const key = (agentId: string, replay: number) => `${agentId}\u0000${replay}`;
  const shared = (agentId: string, replay: number): Pass => {
    const k = key(agentId, replay);
    if (!passes.has(k)) passes.set(k, { budget: createBudget(b?.totalSec ?? null), stoppedBy: null });
    return passes.get(k)!;
  };
  if (b?.scope === 'replay') {
    for (const run of [...recorded].sort((x, y) => x.startedAt.localeCompare(y.startedAt))) {
      const pass = shared(run.agent.id, run.replay);
      pass.budget.spend(run.agentSec * 1000);
      if (b.stopOnError && pass.stoppedBy === null && stopsPass(run.outcome)) pass.stoppedBy = stoppedSentence(run);
    }
  }
  return (agentId, replay) => (b?.scope === 'replay' ? shared(agentId, replay) : { budget: createBudget(b?.totalSec ?? null), stoppedBy: null });
}
