import { describe, expect, it } from 'vitest';
import type { AttemptRow } from '../store/index.js';
import { fleetLine, tallyAttempts } from './report.js';

const attempt = (runId: string, n: number, worker: string, state: AttemptRow['state'], spend: Partial<Pick<AttemptRow, 'costUsd' | 'tokensIn' | 'tokensOut' | 'requests'>> = {}): AttemptRow => ({
  runId,
  attempt: n,
  worker,
  startedAt: '2026-01-01T00:00:00.000Z',
  state,
  costUsd: null,
  tokensIn: null,
  tokensOut: null,
  requests: null,
  ...spend,
});

describe('the fleet line of a report', () => {
  it("shows what lost attempts of model agents spent, apart from the runs, and says where a lost attempt's cost is unknown", () => {
    const tally = tallyAttempts([
      attempt('a', 1, 'w1', 'abandoned', { costUsd: 0.004, tokensIn: 1000, tokensOut: 50, requests: 1 }),
      attempt('a', 2, 'w2', 'recorded', { costUsd: 0.02, tokensIn: 5000, tokensOut: 300, requests: 4 }),
      attempt('b', 1, 'w1', 'abandoned', { costUsd: 0.006, tokensIn: 1500, tokensOut: 70, requests: 2 }),
      attempt('b', 2, 'w3', 'recorded'),
      attempt('c', 1, 'w1', 'abandoned'),
      attempt('c', 2, 'w2', 'recorded'),
    ]);
    expect(tally).toMatchObject({ reExecuted: 3, abandonedAttempts: 3, abandonedCostUsd: 0.01, abandonedTokensIn: 2500, abandonedTokensOut: 120, abandonedRequests: 3, abandonedUnmetered: 1, workers: ['w1', 'w2', 'w3'] });
    expect(fleetLine(tally)).toBe(
      'fleet: 3 worker(s); 3 run(s) re-executed after worker loss; 3 abandoned attempt(s) (never recorded as runs; ' +
        "paid for: $0.0100, 2500 tokens in, 120 out over 3 model request(s), metered up to each one's last finished request; 1 of them cost unknown (no model meter))",
    );
  });

  it('says the cost is unknown when a lost request had no price, or when no lost attempt was metered; says nothing more when none was lost', () => {
    const unpriced = tallyAttempts([attempt('a', 1, 'w1', 'abandoned', { costUsd: null, tokensIn: 10, tokensOut: 5, requests: 1 }), attempt('a', 2, 'w2', 'recorded')]);
    expect(fleetLine(unpriced)).toContain('(never recorded as runs; paid for: cost unknown (a request without a list price), 10 tokens in, 5 out over 1 model request(s)');
    const commands = tallyAttempts([attempt('a', 1, 'w1', 'abandoned'), attempt('a', 2, 'w2', 'recorded')]);
    expect(fleetLine(commands)).toBe('fleet: 2 worker(s); 1 run(s) re-executed after worker loss; 1 abandoned attempt(s) (never recorded as runs; cost unknown (no model meter))');
    expect(fleetLine(tallyAttempts([attempt('a', 1, 'w1', 'recorded')]))).toBe('fleet: 1 worker(s); 0 run(s) re-executed after worker loss; 0 abandoned attempt(s)');
  });
});
