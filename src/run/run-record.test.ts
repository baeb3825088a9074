import { describe, expect, it } from 'vitest';
import { buildRunRecord, sessionTotals } from './run-record.js';

const identity = {
  id: 'run-1', suite: { id: 's', hash: 'h', controlsDigest: 'c' }, task: 't', agent: { id: 'a', harness: 'command', version: '1', model: null, effort: null },
  replay: 0, seed: null, level: null, runtime: { node: '20' }, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z',
};

describe('buildRunRecord', () => {
  it('gives a run that never got to work nothing done', () => {
    expect(buildRunRecord(identity, { kind: 'void', reason: 'setup-failed', detail: 'x' })).toEqual({
      id: 'run-1', suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't', agent: identity.agent, effortCatalog: null, replay: 0, seed: null, level: null,
      outcome: { kind: 'void', reason: 'setup-failed', detail: 'x' }, agentSec: 0, gradeSec: 0, costUsd: null, tokensIn: null, tokensOut: null,
      linesAdded: 0, linesRemoved: 0, points: 0, maxPoints: 0, orders: [], runtime: { node: '20' }, usage: null, flags: [], steps: [], webAttempts: null, plainLines: null,
      startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z',
    });
  });
  it('keeps what the run did', () => {
    const r = buildRunRecord(identity, { kind: 'solved' }, { agentSec: 2, points: 3, maxPoints: 4, orders: [{ order: 1, points: 3, maxPoints: 4 }], costUsd: 0 });
    expect([r.agentSec, r.points, r.maxPoints, r.orders.length, r.costUsd]).toEqual([2, 3, 4, 1, 0]);
  });
});

describe('sessionTotals', () => {
  const row = (order: number, over: object) => ({ order, exitCode: 0, timedOut: false, durationMs: 1, tokensIn: null, tokensOut: null, costUsd: null, error: null, ...over });
  it.each([
    ['no counts: null', [row(1, {}), row(2, {})], { costUsd: null, tokensIn: null, tokensOut: null, usage: null, flags: [], webAttempts: null }],
    [
      'sums what was counted, flags by order',
      [row(1, { costUsd: 0.5, tokensIn: 10, usage: { inputTokens: 10, cacheReadTokens: 1, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0, requests: 1 }, flags: ['f'] }), row(2, { costUsd: 0.25, tokensOut: 3 })],
      { costUsd: 0.75, tokensIn: 10, tokensOut: 3, usage: { inputTokens: 10, cacheReadTokens: 1, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0, requests: 1 }, flags: ['order 1: f'], webAttempts: 0 },
    ],
    [
      'counts every item the tool policy saw in a metered session\'s requests as a web attempt',
      [row(1, {
        usage: { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, requests: 2 },
        requests: [
          { withheld: [{ what: 'tool web_search (web search)', where: 'tools[3]', action: 'stripped' }] },
          { withheld: [{ what: 'tool_choice forcing web_search_preview', where: 'tool_choice', action: 'refused' }, { what: 'endpoint POST /v1/files', where: 'path', action: 'refused' }] },
          { withheld: null },
        ],
      })],
      { costUsd: null, tokensIn: null, tokensOut: null, usage: { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, requests: 2 }, flags: [], webAttempts: 3 },
    ],
  ])('%s', (_name, rows, expected) => {
    expect(sessionTotals(rows as Parameters<typeof sessionTotals>[0])).toEqual(expected);
  });
});
