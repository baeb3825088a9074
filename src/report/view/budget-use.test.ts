import { describe, expect, it } from 'vitest';
import { budgetUse, describeBudget, scoredRuns } from './budget-use.js';
import { summarize } from './summarize.js';
import { testRun } from './test-runs.test-support.js';

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
      stopOnError: false,
      passes: [
        { agent: 'a', replay: 0, runs: 2, usedSec: 220, overBudget: false, stoppedBy: null },
        { agent: 'a', replay: 1, runs: 1, usedSec: 700, overBudget: true, stoppedBy: null },
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

  describe('stopOnError: a timeout or an error stops its pass and leaves the pass unscored', () => {
    const controls = { agentBudget: { totalSec: 600, scope: 'replay', stopOnError: true } };
    const at = (minute: number) => `2025-01-01T00:0${minute}:00Z`;
    const pass = [
      testRun({ id: 'b1', agent: 'b', task: 't1', replay: 0, startedAt: at(1), outcome: { kind: 'solved' } }),
      testRun({ id: 'b2', agent: 'b', task: 't2', replay: 0, startedAt: at(2), outcome: { kind: 'failed', reason: 'session-timeout' } }),
      testRun({ id: 'b3', agent: 'b', task: 't3', replay: 0, startedAt: at(3), agentSec: 0, outcome: { kind: 'void', reason: 'pass-stopped', detail: 'recorded' } }),
    ];
    const other = [
      testRun({ id: 'b4', agent: 'b', task: 't1', replay: 1, startedAt: at(4), outcome: { kind: 'solved' } }),
      testRun({ id: 'c1', agent: 'c', task: 't1', replay: 0, startedAt: at(5), outcome: { kind: 'failed', reason: 'tests-failed' } }),
    ];

    it('counts every run of a stopped pass as void pass-stopped, the solved one before the stop included; other passes keep their outcomes', () => {
      const scored = scoredRuns([...pass, ...other], controls);
      const sentence = 'pass 1 of b stopped at task t2 (session-timeout): controls.agentBudget.stopOnError stops the pass and leaves it unscored';
      expect(scored.map((r) => [r.id, r.outcome])).toEqual([
        ['b1', { kind: 'void', reason: 'pass-stopped', detail: sentence }],
        ['b2', { kind: 'void', reason: 'pass-stopped', detail: sentence }],
        ['b3', { kind: 'void', reason: 'pass-stopped', detail: 'recorded' }],
        ['b4', { kind: 'solved' }],
        ['c1', { kind: 'failed', reason: 'tests-failed' }],
      ]);
      // an error event stops a pass too, and keeps its own reason
      const errored = testRun({ id: 'e', agent: 'e', outcome: { kind: 'void', reason: 'upstream-error' } });
      const before = testRun({ id: 'e0', agent: 'e', task: 't0', startedAt: '2024-12-31T00:00:00Z' });
      expect(scoredRuns([before, errored], controls).map((r) => r.outcome.kind === 'void' && r.outcome.reason)).toEqual(['pass-stopped', 'upstream-error']);
      // the instrument's own failure does not stop a pass
      const infra = testRun({ id: 'i', agent: 'i', outcome: { kind: 'void', reason: 'infra-error' } });
      const after = testRun({ id: 'i2', agent: 'i', task: 't2', startedAt: at(9) });
      expect(scoredRuns([infra, after], controls)[1]!.outcome).toEqual({ kind: 'solved' });
    });

    it('changes nothing without the rule', () => {
      const runs = [...pass, ...other];
      expect(scoredRuns(runs, { agentBudget: { totalSec: 600, scope: 'replay' } })).toBe(runs);
    });

    it('names the run that stopped each pass, and the leaderboard scores the pass as void', () => {
      const use = budgetUse([...pass, ...other], controls);
      expect(use?.passes.find((p) => p.agent === 'b' && p.replay === 0)?.stoppedBy).toEqual({ task: 't2', reason: 'session-timeout' });
      expect(use?.passes.find((p) => p.agent === 'b' && p.replay === 1)?.stoppedBy).toBeNull();
      expect(describeBudget(use)[0]).toMatch(/A timeout or an error stops its pass and leaves the pass unscored/);
      expect(describeBudget(use)[1]).toBe('  b used pass 1: 2.0 s (stopped at task t2, session-timeout: unscored), pass 2: 1.0 s.');
      const view = summarize([...pass, ...other], { controls, standardRunsPerTask: 2 });
      const b = view.agents.find((a) => a.agent.id === 'b')!;
      // t1: one pass-stopped run and one solved run (pass 2): solved; t2 and t3 void
      expect(b.voidTasks.map((t) => t.task)).toEqual(['t2', 't3']);
      expect(b.voidTasksByReason).toEqual({ 'pass-stopped': 2 });
    });
  });
});
