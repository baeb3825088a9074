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

/** A metered request, as pricing needs it. */
export interface PricedRequest {
  readonly model: string | null;
  readonly usage: RequestUsage | null;
  readonly costUsd: number | null;
}

/**
 * What a session cost, request by request: what the provider charged for it (OpenRouter), else
 * its tokens at the list price of the model that answered (the response's model, else the one
 * asked for, else the agent's). Unknown (null) when some request has tokens but no price; a flag
 * says which model lacked one, or that a request was priced as another model.
 */
export function sessionCost(
  requests: readonly PricedRequest[],
  priceOf: (model: string) => Price | null,
  agentModel: string,
): { costUsd: number | null; flags: string[] } {
  let total = 0;
  const flags = new Set<string>();
  let unknown = false;
  for (const r of requests) {
    if (r.costUsd !== null) {
      total += r.costUsd;
      continue;
    }
    if (!r.usage) continue;
    const candidates = [r.usage.model, r.model, agentModel].filter((m): m is string => !!m);
    const priced = candidates.map((model) => ({ model, price: priceOf(model) })).find((c) => c.price !== null);
    if (priced === undefined) {
      unknown = true;
      flags.add(`cost: no list price for ${candidates[0] ?? agentModel}`);
      continue;
    }
    if (priced.model !== candidates[0]) flags.add(`cost: ${candidates[0]} has no list price; priced as ${priced.model}`);
    total += costOf(r.usage, priced.price!);
  }
  return { costUsd: unknown ? null : total, flags: [...flags] };
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
