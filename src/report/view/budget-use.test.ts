import { describe, expect, it } from 'vitest';
import { budgetUse, describeBudget } from './budget-use.js';
import { testRun } from './test-runs.js';

describe('agent time budget used', () => {
  const runs = [
    testRun({ id: 'a1', agent: 'a', task: 't1', replay: 0, agentSec: 100.04 }),
    testRun({ id: 'a2', agent: 'a', task: 't2', replay: 0, agentSec: 120 }),
    testRun({ id: 'a3', agent: 'a', task: 't1', replay: 1, agentSec: 700 }),
  ];

  it('sums session seconds per agent and pass for a replay-scoped budget, and says which passes went over', () => {
    expect(budgetUse(runs, { agentBudget: { totalSec: 600, scope: 'replay' } })).toEqual({
      totalSec: 600,
      scope: 'replay',
      passes: [
        { agent: 'a', replay: 0, runs: 2, usedSec: 220, overBudget: false },
        { agent: 'a', replay: 1, runs: 1, usedSec: 700, overBudget: true },
      ],
    });
    expect(describeBudget(budgetUse(runs, { agentBudget: { totalSec: 600, scope: 'replay' } }))).toEqual([
      'Agent time budget: 600 s of session time per agent for each pass over the suite (grading outside it).',
      '  a used pass 1: 220.0 s, pass 2: 700.0 s.',
    ]);
  });

  it('is absent without a budget', () => {
    expect(budgetUse(runs, { runsPerTask: 1 })).toBeNull();
    expect(describeBudget(null)).toEqual([]);
  });
});
