import type { RunRecord } from '../../types.js';
import { compareText } from '../render/compare-text.js';

/** How much of the controls' agent time budget each pass spent (sessions only, never grading). */
export interface BudgetUse {
  readonly totalSec: number;
  /** `replay`: one budget per agent for each pass over the whole suite; `run`: one per run. */
  readonly scope: 'run' | 'replay';
  /** Per agent and pass (`replay`; for scope `run`, per run): the session seconds spent and the runs they cover, sorted. */
  readonly passes: readonly { readonly agent: string; readonly replay: number; readonly runs: number; readonly usedSec: number; readonly overBudget: boolean }[];
}

/** The agent time budget of stored controls and what each pass of each agent spent of it; null without a budget. Pure. */
export function budgetUse(runs: readonly RunRecord[], controls: unknown): BudgetUse | null {
  const raw = (controls as { agentBudget?: { totalSec?: unknown; scope?: unknown } } | null)?.agentBudget;
  if (!raw || typeof raw.totalSec !== 'number' || (raw.scope !== 'run' && raw.scope !== 'replay')) return null;
  const totalSec = raw.totalSec;
  const scope: 'run' | 'replay' = raw.scope;
  const sums = new Map<string, { agent: string; replay: number; runs: number; usedSec: number }>();
  for (const run of runs) {
    const key = scope === 'replay' ? `${run.agent.id}\u0000${run.replay}` : run.id;
    const slot = sums.get(key) ?? { agent: run.agent.id, replay: run.replay, runs: 0, usedSec: 0 };
    slot.runs++;
    slot.usedSec += run.agentSec;
    sums.set(key, slot);
  }
  const passes = [...sums.values()]
    .map((p) => ({ ...p, usedSec: Math.round(p.usedSec * 10) / 10, overBudget: p.usedSec > totalSec }))
    .sort((a, b) => compareText(a.agent, b.agent) || a.replay - b.replay);
  return { totalSec, scope, passes };
}

/** One sentence per agent: the budget and what its passes spent. */
export function describeBudget(use: BudgetUse | null | undefined): string[] {
  if (!use) return [];
  const agents = [...new Set(use.passes.map((p) => p.agent))];
  const per = use.scope === 'replay' ? 'per agent for each pass over the suite' : 'per run';
  return [
    `Agent time budget: ${use.totalSec} s of session time ${per} (grading outside it).`,
    ...agents.map((agent) => {
      const mine = use.passes.filter((p) => p.agent === agent);
      const spent = mine.map((p) => `${use.scope === 'replay' ? `pass ${p.replay + 1}` : `a run of pass ${p.replay + 1}`}: ${p.usedSec.toFixed(1)} s`).join(', ');
      return `  ${agent} used ${spent}.`;
    }),
  ];
}
