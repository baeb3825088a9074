import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogInfo } from './catalog-info.js';
import { costOf } from './cost-of.js';
import { listPrice } from './prices.js';

const sonnet = { model: 'claude-sonnet-4-5', provider: 'anthropic', input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15, webSearchPerK: 10, source: 'catalog', when: null };

describe('listPrice', () => {
  it('gives claude-sonnet-4-5 at its base rates, with or without a provider prefix', () => {
    expect(listPrice('claude-sonnet-4-5')).toEqual(sonnet);
    expect(listPrice('anthropic/claude-sonnet-4-5')).toEqual(sonnet);
    expect(listPrice('claude-sonnet-4-5', 'anthropic')).toEqual(sonnet);
    expect(listPrice('claude-sonnet-4-5-20250929')).toEqual(sonnet);
  });

  it.each([
    ['gpt-5.5', undefined, { provider: 'openai', input: 5, cacheRead: 0.5, cacheWrite: 5, output: 30 }],
    ['openai/gpt-5', undefined, { provider: 'openai', input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, output: 10 }],
    ['gemini-2.5-pro', undefined, { provider: 'google', input: 1.25, cacheRead: 0.125, output: 10 }],
    ['google/gemini-2.5-pro', undefined, { provider: 'google', input: 1.25 }],
    ['openai/gpt-5', 'openrouter', { provider: 'openrouter', model: 'openai/gpt-5', input: 1.25 }],
    ['claude-opus-4-5', undefined, { input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 }],
  ])('prices %s (provider %s) at base rates', (model, provider, expected) => {
    expect(listPrice(model, provider)).toMatchObject(expected);
  });

  it('gives the price in force at the moment asked for: deepseek-chat peak 00:30–16:30 UTC, off-peak otherwise', () => {
    const at = (time: string) => listPrice('deepseek-chat', undefined, new Date(`2026-12-01T${time}Z`));
    const peak = { provider: 'deepseek', input: 0.27, cacheRead: 0.07, output: 1.1, when: '00:30–16:30 UTC' };
    const offPeak = { provider: 'deepseek', input: 0.135, cacheRead: 0.035, output: 0.55, when: 'outside 00:30–16:30 UTC' };
    expect(at('10:00:00')).toMatchObject(peak);
    expect(at('00:30:00')).toMatchObject(peak);
    expect(at('20:00:00')).toMatchObject(offPeak);
    expect(at('16:30:00')).toMatchObject(offPeak);
    expect(at('00:29:59')).toMatchObject(offPeak);
  });

  it('names a dated price and the windows it is outside of (deepseek-v4-flash)', () => {
    expect(listPrice('deepseek-v4-flash', undefined, new Date('2026-12-01T12:00:00Z'))).toMatchObject({
      input: 0.22, output: 0.66, when: 'since 2026-08-17, outside 01:00–04:00, 06:00–10:00 UTC',
    });
    expect(listPrice('deepseek-v4-flash', undefined, new Date('2026-12-01T02:00:00Z'))).toMatchObject({ input: 0.44, when: '01:00–04:00 UTC' });
    expect(listPrice('deepseek-v4-flash', undefined, new Date('2026-06-01T12:00:00Z'))).toMatchObject({ input: 0.14, when: 'outside 01:00–04:00, 06:00–10:00 UTC' });
  });

  it('gives null for a model the catalog does not know', () => {
    expect(listPrice('no-such-model-xyz')).toBeNull();
    expect(listPrice('claude-sonnet-4-5', 'no-such-provider')).toBeNull();
  });
});

describe('costOf', () => {
  it('prices 200,001 input tokens at the base rate, not the long-context tier', () => {
    const tokens = { inputTokens: 200_001, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
    expect(costOf(tokens, sonnet)).toBeCloseTo(0.600003, 9);
  });

  it('prices each class at its own rate, with input counting all input', () => {
    // 1M uncached + 2M cache read + 0.1M cache write + 0.5M output (reasoning included)
    const tokens = { inputTokens: 3_100_000, cacheReadTokens: 2_000_000, cacheWriteTokens: 100_000, outputTokens: 500_000 };
    expect(costOf(tokens, sonnet)).toBeCloseTo(3 + 0.6 + 0.375 + 7.5, 9);
  });

  it('adds the web search fee of the open web where the price list has one, and nothing where it has none', () => {
    const tokens = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, webSearches: 3 };
    expect(costOf(tokens, sonnet)).toBeCloseTo(0.03, 12);
    expect(costOf(tokens, listPrice('gemini-2.5-pro')!)).toBe(0);
  });

  it('never counts negative uncached input', () => {
    expect(costOf({ inputTokens: 10, cacheReadTokens: 20, cacheWriteTokens: 0, outputTokens: 0 }, sonnet)).toBeCloseTo(20 * 0.3 / 1e6, 12);
  });
});

describe('catalogInfo', () => {
  it('names the installed catalog, pinned exactly in package.json, and its data date', () => {
    const info = catalogInfo();
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(info.package).toBe('@pydantic/genai-prices');
    expect(pkg.dependencies[info.package]).toBe(info.version);
    // A new pinned version needs its publish date in catalog-info.ts.
    expect(info.dataDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(info.dataDateSource).toMatch(/npm publish time/);
    expect(createRequire(import.meta.url).resolve(info.package)).toContain('genai-prices');
  });
});
