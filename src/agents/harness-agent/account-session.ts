import { costOf, type TokenRates } from '../../meter/cost-of.js';
import type { RequestUsage } from '../../meter/types.js';
import type { TokenUsage } from '../../types.js';
import type { HarnessTokens } from '../harnesses/types.js';

/** Per-MTok list prices of a model at each token class's base rate. */
export type Price = TokenRates;

/** Sums the metered usage of a session's requests (requests without a count add nothing but are counted). */
export function sumUsage(usages: readonly (RequestUsage | null)[]): TokenUsage {
  const total = { inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0, requests: usages.length };
  for (const u of usages) {
    if (!u) continue;
    total.inputTokens += u.inputTokens;
    total.cacheReadTokens += u.cacheReadTokens;
    total.cacheWriteTokens += u.cacheWriteTokens;
    total.outputTokens += u.outputTokens;
    total.reasoningTokens += u.reasoningTokens;
  }
  return total;
}

/**
 * What a session cost: what the provider charged when every request carried a charge
 * (OpenRouter), else the metered tokens at list prices, else unknown.
 */
export function sessionCost(
  charges: readonly (number | null)[],
  usage: TokenUsage,
  price: Price | null,
): { costUsd: number | null; basis: 'charged' | 'list' | 'unknown' } {
  if (charges.length > 0 && charges.every((c) => c !== null)) return { costUsd: charges.reduce<number>((a, c) => a + c!, 0), basis: 'charged' };
  if (usage.requests === 0) return { costUsd: 0, basis: 'list' };
  if (price) return { costUsd: costOf(usage, price), basis: 'list' };
  return { costUsd: null, basis: 'unknown' };
}

const CLASSES = [
  ['input', 'inputTokens'],
  ['cache read', 'cacheReadTokens'],
  ['cache write', 'cacheWriteTokens'],
  ['output', 'outputTokens'],
  ['reasoning', 'reasoningTokens'],
] as const;

/**
 * Where the harness's own token report disagrees with the meter by more than 1 % (at least 10
 * tokens), one line per token class; classes the harness does not report are not compared.
 */
export function tokenDisagreements(harness: HarnessTokens | null, metered: TokenUsage): string[] {
  if (!harness) return metered.requests > 0 ? ['tokens: the harness reported no token counts'] : [];
  const flags: string[] = [];
  for (const [label, key] of CLASSES) {
    const reported = harness[key];
    if (reported === null) continue;
    const counted = metered[key];
    if (Math.abs(reported - counted) > Math.max(10, 0.01 * counted)) {
      flags.push(`tokens: the harness reported ${label} ${reported}, the meter counted ${counted}`);
    }
  }
  return flags;
}
