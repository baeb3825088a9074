import { describe, expect, it } from 'vitest';
import type { RequestUsage } from '../../meter/types.js';
import { sessionCost, sumUsage, tokenDisagreements } from './account-session.js';

const usage = (model: string | null, over: Partial<RequestUsage> = {}): RequestUsage => ({
  inputTokens: 1230, cacheReadTokens: 200, cacheWriteTokens: 30, outputTokens: 40, reasoningTokens: 5, model, costUsd: null, ...over,
});
const SONNET = { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 };
const HAIKU = { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 };
const priceOf = (m: string) => ({ 'claude-sonnet-4-5': SONNET, 'claude-haiku-4-5': HAIKU })[m] ?? null;
const perRequest = (p: typeof SONNET) => (1000 * p.input + 200 * p.cacheRead + 30 * p.cacheWrite + 40 * p.output) / 1e6;

describe('sessionCost', () => {
  it('prices each request at the list price of the model that answered it', () => {
    const requests = [
      { model: 'claude-sonnet-4-5', usage: usage('claude-sonnet-4-5'), costUsd: null },
      { model: 'claude-haiku-4-5', usage: usage('claude-haiku-4-5'), costUsd: null }, // a side call to a small model
      { model: 'claude-sonnet-4-5', usage: null, costUsd: null }, // a 429: no tokens
    ];
    expect(sessionCost(requests, priceOf, 'claude-sonnet-4-5')).toEqual({ costUsd: perRequest(SONNET) + perRequest(HAIKU), flags: [] });
  });

  it('uses the provider\'s charge where a request has one, and says when a model had no price', () => {
    const charged = [{ model: 'x/y', usage: usage('x/y', { costUsd: 0.5 }), costUsd: 0.5 }, { model: 'x/y', usage: usage('x/y'), costUsd: null }];
    expect(sessionCost(charged, priceOf, 'x/y')).toEqual({ costUsd: null, flags: ['cost: no list price for x/y'] });
    expect(sessionCost(charged.slice(0, 1), priceOf, 'x/y')).toEqual({ costUsd: 0.5, flags: [] });
    const swapped = [{ model: 'claude-sonnet-4-5', usage: usage('claude-sonnet-4-5-20991231'), costUsd: null }];
    expect(sessionCost(swapped, priceOf, 'claude-sonnet-4-5')).toEqual({
      costUsd: perRequest(SONNET),
      flags: ['cost: claude-sonnet-4-5-20991231 has no list price; priced as claude-sonnet-4-5'],
    });
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
