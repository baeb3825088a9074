import { describe, expect, it } from 'vitest';
import { listPrice } from '../../meter/prices/prices.js';
import type { RequestUsage } from '../../meter/types.js';
import { describePrice, type Price, sessionCost, sumUsage, tokenDisagreements } from './account-session.js';

const usage = (model: string | null, over: Partial<RequestUsage> = {}): RequestUsage => ({
  inputTokens: 1230, cacheReadTokens: 200, cacheWriteTokens: 30, outputTokens: 40, reasoningTokens: 5, model, costUsd: null, ...over,
});
const price = (model: string, rates: Pick<Price, 'input' | 'cacheRead' | 'cacheWrite' | 'output'>): Price => ({ model, provider: 'anthropic', source: 'catalog', when: null, ...rates });
const SONNET = price('claude-sonnet-4-5', { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 });
const HAIKU = price('claude-haiku-4-5', { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 });
const priceOf = (m: string) => ({ 'claude-sonnet-4-5': SONNET, 'claude-haiku-4-5': HAIKU })[m] ?? null;
const perRequest = (p: Price) => (1000 * p.input + 200 * p.cacheRead + 30 * p.cacheWrite + 40 * p.output) / 1e6;
const startedAt = '2026-12-01T10:00:00.000Z';

describe('sessionCost', () => {
  it('prices each request at the list price of the model that answered it, and says on what basis', () => {
    const requests = [
      { startedAt, model: 'claude-sonnet-4-5', usage: usage('claude-sonnet-4-5'), costUsd: null },
      { startedAt, model: 'claude-haiku-4-5', usage: usage('claude-haiku-4-5'), costUsd: null }, // a side call to a small model
      { startedAt, model: 'claude-sonnet-4-5', usage: null, costUsd: null }, // a 429: no tokens
    ];
    expect(sessionCost(requests, priceOf, 'claude-sonnet-4-5')).toEqual({
      costUsd: perRequest(SONNET) + perRequest(HAIKU),
      flags: [],
      requests: [
        { costUsd: perRequest(SONNET), basis: 'catalog anthropic/claude-sonnet-4-5: $3 input, $0.3 cache read, $3.75 cache write, $15 output per MTok' },
        { costUsd: perRequest(HAIKU), basis: describePrice(HAIKU) },
        { costUsd: null, basis: null },
      ],
    });
  });

  it('uses the provider\'s charge where a request has one, and says when a model had no price', () => {
    const charged = [{ startedAt, model: 'x/y', usage: usage('x/y', { costUsd: 0.5 }), costUsd: 0.5 }, { startedAt, model: 'x/y', usage: usage('x/y'), costUsd: null }];
    expect(sessionCost(charged, priceOf, 'x/y')).toEqual({
      costUsd: null,
      flags: ['cost: no list price for x/y'],
      requests: [{ costUsd: 0.5, basis: 'charged by the provider' }, { costUsd: null, basis: 'no list price for x/y' }],
    });
    expect(sessionCost(charged.slice(0, 1), priceOf, 'x/y')).toMatchObject({ costUsd: 0.5, flags: [] });
    const swapped = [{ startedAt, model: 'claude-sonnet-4-5', usage: usage('claude-sonnet-4-5-20991231'), costUsd: null }];
    expect(sessionCost(swapped, priceOf, 'claude-sonnet-4-5')).toMatchObject({
      costUsd: perRequest(SONNET),
      flags: ['cost: claude-sonnet-4-5-20991231 has no list price; priced as claude-sonnet-4-5'],
    });
  });

  it('prices each request at the catalog price of its own time of day: two times, two prices', () => {
    const at = (time: string) => ({ startedAt: `2026-12-01T${time}.000Z`, model: 'deepseek-chat', usage: usage('deepseek-chat'), costUsd: null });
    const cost = sessionCost([at('10:00:00'), at('20:00:00')], (model, when) => listPrice(model, undefined, when), 'deepseek-chat');
    const peak = (1000 * 0.27 + 200 * 0.07 + 30 * 0.27 + 40 * 1.1) / 1e6;
    const offPeak = (1000 * 0.135 + 200 * 0.035 + 30 * 0.135 + 40 * 0.55) / 1e6;
    expect(cost.requests.map((r) => r.costUsd)).toEqual([peak, offPeak]);
    expect(cost.requests[0]!.basis).toMatch(/^catalog deepseek\/deepseek-chat, 00:30–16:30 UTC: \$0\.27 input/);
    expect(cost.requests[1]!.basis).toMatch(/^catalog deepseek\/deepseek-chat, outside 00:30–16:30 UTC: \$0\.135 input/);
    expect(cost.costUsd).toBeCloseTo(peak + offPeak, 15);
  });
});

describe('tokenDisagreements', () => {
  it('flags a class the harness reports more than 1 % (10 tokens) away from the meter, and skips classes it does not report', () => {
    const metered = sumUsage([usage(null), usage(null)]);
    expect(tokenDisagreements({ inputTokens: 2460, cacheReadTokens: 400, cacheWriteTokens: null, outputTokens: 80, reasoningTokens: null }, metered)).toEqual([]);
    expect(tokenDisagreements({ inputTokens: 2460, cacheReadTokens: 400, cacheWriteTokens: 60, outputTokens: 60, reasoningTokens: null }, metered)).toEqual([
      'tokens: the harness reported output 60, the meter counted 80',
    ]);
  });
});
