import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../types.js';
import { attemptRows, sumSpent } from './attempt-rows.js';
import type { SpentRequest } from './jobs.js';

const request = (seq: number, input: number | null, output: number | null, costUsd: number | null): SpentRequest => ({
  order: 1,
  seq,
  model: 'claude-sonnet-4-5',
  input,
  cacheRead: 0,
  cacheWrite: 0,
  output,
  reasoning: 0,
  costUsd,
});

describe('sumSpent', () => {
  it('adds up tokens and cost of the requests a worker reported', () => {
    expect(sumSpent([request(1, 1000, 50, 0.004), request(2, 1200, 70, 0.005)])).toEqual({ costUsd: 0.009000000000000001, tokensIn: 2200, tokensOut: 120, requests: 2 });
    expect(sumSpent([])).toEqual({ costUsd: 0, tokensIn: 0, tokensOut: 0, requests: 0 });
  });

  it('leaves the cost unknown when a request with tokens had no price, and counts a request without tokens as a request only', () => {
    expect(sumSpent([request(1, 1000, 50, 0.004), request(2, 10, 5, null)])).toEqual({ costUsd: null, tokensIn: 1010, tokensOut: 55, requests: 2 });
    expect(sumSpent([request(1, 1000, 50, 0.004), request(2, null, null, null)])).toEqual({ costUsd: 0.004, tokensIn: 1000, tokensOut: 50, requests: 2 });
  });
});

describe('attemptRows', () => {
  const starts = [
    { attempt: 1, worker: 'w1', startedAt: '2026-01-01T00:00:00.000Z', token: 't1' },
    { attempt: 2, worker: 'w2', startedAt: '2026-01-01T00:01:00.000Z', token: 't2' },
  ];
  const record = { costUsd: 0.02, tokensIn: 5000, tokensOut: 300, usage: { requests: 4 } } as unknown as RunRecord;

  it("gives the recorded attempt its run's figures and an abandoned one what its worker reported, never mixing them", () => {
    const rows = attemptRows({ runId: 'r', starts, recorded: { attempt: 2, record }, metered: true, spent: new Map([[1, [request(1, 1000, 50, 0.004)]]]) });
    expect(rows).toEqual([
      { runId: 'r', attempt: 1, worker: 'w1', startedAt: starts[0]!.startedAt, state: 'abandoned', costUsd: 0.004, tokensIn: 1000, tokensOut: 50, requests: 1 },
      { runId: 'r', attempt: 2, worker: 'w2', startedAt: starts[1]!.startedAt, state: 'recorded', costUsd: 0.02, tokensIn: 5000, tokensOut: 300, requests: 4 },
    ]);
  });

  it('knows nothing of what a lost attempt of an agent without a meter spent, and a lost attempt that finished no request spent nothing metered', () => {
    const unmetered = attemptRows({ runId: 'r', starts, recorded: { attempt: 2, record }, metered: false, spent: new Map() });
    expect(unmetered[0]).toMatchObject({ state: 'abandoned', costUsd: null, tokensIn: null, tokensOut: null, requests: null });
    const early = attemptRows({ runId: 'r', starts, recorded: null, metered: true, spent: new Map() });
    expect(early.map((a) => [a.state, a.costUsd, a.requests])).toEqual([
      ['abandoned', 0, 0],
      ['abandoned', 0, 0],
    ]);
  });
});
