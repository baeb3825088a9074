import { describe, expect, it } from 'vitest';
import { describeQuota, quotaUse, type QuotaReading } from './quota-use.js';

describe('subscription quota used, from the plan headers stored per answer', () => {
  const codex = 'codex:gpt-5.5@low+subscription';
  const claude = 'claude-code:claude-sonnet-4-5+subscription';
  const readings: QuotaReading[] = [
    { agent: codex, at: '2026-01-01T00:02:00Z', quota: { 'x-codex-primary-used-percent': '35', 'x-codex-primary-window-minutes': '300', 'x-codex-secondary-used-percent': '4' } },
    { agent: codex, at: '2026-01-01T00:00:00Z', quota: { 'x-codex-primary-used-percent': '12', 'x-codex-primary-window-minutes': '300', 'x-codex-credits-balance': '9' } },
    { agent: codex, at: '2026-01-01T00:01:00Z', quota: { 'x-codex-primary-used-percent': '40' } },
    { agent: claude, at: '2026-01-01T00:00:30Z', quota: { 'anthropic-ratelimit-unified-5h-utilization': '0.2', 'anthropic-ratelimit-unified-status': 'allowed' } },
    { agent: claude, at: '2026-01-01T00:03:00Z', quota: { 'anthropic-ratelimit-unified-5h-utilization': '0.25', 'anthropic-ratelimit-unified-7d-utilization': 'n/a' } },
  ];

  it('gives each agent and window the share at the first and last answer (by time), the peak and the window length', () => {
    expect(quotaUse(readings)).toEqual([
      { agent: claude, window: '5h', minutes: null, firstPercent: 20, lastPercent: 25, maxPercent: 25, answers: 2 },
      { agent: codex, window: 'primary', minutes: 300, firstPercent: 12, lastPercent: 35, maxPercent: 40, answers: 3 },
      { agent: codex, window: 'secondary', minutes: null, firstPercent: 4, lastPercent: 4, maxPercent: 4, answers: 1 },
    ]);
    expect(quotaUse([])).toEqual([]);
  });

  it('says it in a sentence per agent', () => {
    expect(describeQuota(quotaUse(readings))).toEqual([
      `Subscription quota of ${claude}, from the plan's own headers at the bake's first and last answer: 5h window 20% → 25% used.`,
      `Subscription quota of ${codex}, from the plan's own headers at the bake's first and last answer: primary window (300 min) 12% → 35% used (peak 40%); secondary window 4% → 4% used.`,
    ]);
    expect(describeQuota([])).toEqual([]);
    expect(describeQuota(undefined)).toEqual([]);
  });
});
