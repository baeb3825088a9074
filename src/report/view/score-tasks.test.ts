import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../../types.js';
import { scoreTasks } from './score-tasks.js';
import { testRunsOf } from './test-runs.test-support.js';

const S: Outcome = { kind: 'solved' };
const F: Outcome = { kind: 'failed', reason: 'tests-failed' };
const INFRA: Outcome = { kind: 'void', reason: 'infra-error', detail: 'docker died' };
const ORACLE: Outcome = { kind: 'void', reason: 'oracle-changed' };

/** One agent's runs: `{ t1: [S, F] }` is task t1 with replays 0 (solved) and 1 (failed). */
function runsOf(outcomes: Record<string, Outcome[]>, agent = 'a'): RunRecord[] {
  return testRunsOf(agent, outcomes);
}

const STRICT = { replays: 2, allowedDrift: 0 };

describe('scoreTasks under a replay rule', () => {
  it('scores a task whose replays agree by their common outcome', () => {
    expect(scoreTasks(runsOf({ t1: [S, S], t2: [F, F] }), STRICT)).toEqual([
      { kind: 'scored', task: 't1', runs: 2, share: 1, scores: [1], agreement: 'agree' },
      { kind: 'scored', task: 't2', runs: 2, share: 0, scores: [0], agreement: 'agree' },
    ]);
  });

  it('voids a task whose replays disagree, with reason replay-drift, whichever replay solved', () => {
    for (const outcomes of [[S, F], [F, S]]) {
      const [score] = scoreTasks(runsOf({ t1: outcomes }), STRICT);
      expect(score).toEqual({
        kind: 'void',
        task: 't1',
        runs: 2,
        reason: 'replay-drift',
        detail: 'replays disagree: 1 solved, 1 failed (allowed drift 0)',
      });
    }
  });

  it('allows one replay to differ from the majority with allowed drift 1, but not two', () => {
    const rule = { replays: 3, allowedDrift: 1 };
    const [solvedMajority, failedMajority] = scoreTasks(runsOf({ t1: [S, F, S], t2: [F, F, S] }), rule);
    expect(solvedMajority).toMatchObject({ kind: 'scored', share: 1, agreement: 'agree' });
    expect(failedMajority).toMatchObject({ kind: 'scored', share: 0, agreement: 'agree' });
    const five = { replays: 5, allowedDrift: 1 };
    expect(scoreTasks(runsOf({ t1: [S, F, S, F, S] }), five)[0]).toMatchObject({ kind: 'void', reason: 'replay-drift' });
    expect(scoreTasks(runsOf({ t1: [S, F, S, S, S] }), five)[0]).toMatchObject({ kind: 'scored', share: 1 });
  });

  it('does not count a tie within the allowed drift as solved', () => {
    const [tie] = scoreTasks(runsOf({ t1: [S, F] }), { replays: 2, allowedDrift: 1 });
    expect(tie).toMatchObject({ kind: 'scored', share: 0, scores: [0], agreement: 'agree' });
  });

  it('voids a task with a void replay, with that replay’s reason, even when the others agree', () => {
    const [infra, oracle] = scoreTasks(runsOf({ t1: [S, INFRA], t2: [ORACLE, F] }), { replays: 2, allowedDrift: 5 });
    expect(infra).toEqual({
      kind: 'void',
      task: 't1',
      runs: 2,
      reason: 'infra-error',
      detail: 'replay 2 of 2 void (infra-error: docker died)',
    });
    expect(oracle).toMatchObject({ kind: 'void', reason: 'oracle-changed' });
  });

  it('marks a task with a single replay as scored but not compared', () => {
    expect(scoreTasks(runsOf({ t1: [S] }), STRICT)[0]).toMatchObject({ kind: 'scored', share: 1, agreement: 'single' });
  });

  it('reads replays in replay order, whatever the order of the input', () => {
    const runs = runsOf({ t1: [INFRA, ORACLE] });
    expect(scoreTasks([...runs].reverse(), STRICT)[0]).toMatchObject({ reason: 'infra-error' });
  });
});

describe('scoreTasks without a replay rule', () => {
  it('treats runs as independent samples: the share of valid runs solved, no drift', () => {
    expect(scoreTasks(runsOf({ t2: [S, F, INFRA], t1: [S, S] }), null)).toEqual([
      { kind: 'scored', task: 't1', runs: 2, share: 1, scores: [1, 1], agreement: null },
      { kind: 'scored', task: 't2', runs: 3, share: 0.5, scores: [1, 0], agreement: null },
    ]);
  });

  it('voids a task only when every run was void', () => {
    expect(scoreTasks(runsOf({ t1: [INFRA, ORACLE, INFRA] }), null)).toEqual([
      { kind: 'void', task: 't1', runs: 3, reason: 'infra-error', detail: 'every run void (infra-error 2, oracle-changed 1)' },
    ]);
  });

  it('refuses runs of several agents', () => {
    expect(() => scoreTasks([...runsOf({ t1: [S] }, 'a'), ...runsOf({ t1: [S] }, 'b')], null)).toThrow(RangeError);
  });
});
