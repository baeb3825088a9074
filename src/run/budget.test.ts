import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../types.js';
import { createPasses } from './budget.js';

const run = (over: Partial<RunRecord> & Pick<RunRecord, 'task' | 'outcome' | 'agentSec'>): RunRecord =>
  ({ id: over.task, agent: { id: 'a', harness: 'builtin', version: null, model: null, effort: null }, replay: 0, startedAt: '2026-01-01T00:00:00Z', ...over }) as RunRecord;

describe("each agent's pass, seeded from the runs a results folder holds (resume)", () => {
  const recorded = [
    run({ task: 't1', outcome: { kind: 'solved' }, agentSec: 100 }),
    run({ task: 't2', outcome: { kind: 'failed', reason: 'session-timeout' }, agentSec: 120, startedAt: '2026-01-01T00:02:00Z' }),
    run({ task: 't1', replay: 1, outcome: { kind: 'void', reason: 'infra-error' }, agentSec: 5 }),
  ];

  it('starts a replay-scoped pass with what its stored runs spent, and stopped when one of them timed out under stopOnError', () => {
    const passOf = createPasses({ agentBudget: { totalSec: 600, scope: 'replay', stopOnError: true } }, recorded);
    expect(passOf('a', 0).budget.remainingMs()).toBe(380_000);
    expect(passOf('a', 0).stoppedBy).toMatch(/^pass 1 of a stopped at task t2 \(session-timeout\)/);
    // an instrument failure does not stop a pass; another agent's pass is fresh
    expect(passOf('a', 1)).toMatchObject({ stoppedBy: null });
    expect(passOf('a', 1).budget.remainingMs()).toBe(595_000);
    expect(passOf('b', 0).budget.remainingMs()).toBe(600_000);
    // one pass object per agent and replay: what one run spends, the next run of the pass sees
    passOf('b', 0).budget.spend(1000);
    expect(passOf('b', 0).budget.remainingMs()).toBe(599_000);
  });

  it('does not stop a pass without stopOnError, and gives each run its own budget for scope run', () => {
    expect(createPasses({ agentBudget: { totalSec: 600, scope: 'replay' } }, recorded)('a', 0).stoppedBy).toBeNull();
    const perRun = createPasses({ agentBudget: { totalSec: 60, scope: 'run' } }, recorded);
    perRun('a', 0).budget.spend(60_000);
    expect(perRun('a', 0).budget.remainingMs()).toBe(60_000);
    expect(createPasses({}, recorded)('a', 0).budget.remainingMs()).toBe(Infinity);
  });
});
