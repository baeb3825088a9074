import { costOf } from '../../meter/prices/cost-of.js';
import type { ModelPrice } from '../../meter/prices/prices.js';
import type { RequestUsage } from '../../meter/types.js';
import type { TokenUsage } from '../../types.js';
import type { HarnessTokens } from '../harnesses/types.js';

/** A model's list prices per MTok at each token class's base rate, and where they come from. */
export type Price = ModelPrice;

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
  /** When the request arrived at the proxy (ISO 8601): it is priced at the list price of that moment. */
  readonly startedAt: string;
  readonly model: string | null;
  readonly usage: RequestUsage | null;
  readonly costUsd: number | null;
}

/** What one request cost, and on what basis; both null for a request without tokens. */
export interface RequestCost {
  readonly costUsd: number | null;
  /** `charged by the provider`, the list price used (`catalog deepseek/deepseek-chat, 00:30–16:30 UTC: …`), or why there is none. */
  readonly basis: string | null;
}

/** A session's cost: the sum of its requests' costs (null when one with tokens has no price), and each request's. */
export interface SessionCost {
  readonly costUsd: number | null;
  readonly flags: string[];
  /** One per request, in order: stored with the request, so that reports only ever add them up. */
  readonly requests: RequestCost[];
}

/**
 * What a session cost, request by request: what the provider charged for it (OpenRouter), else
 * its tokens at the list price in force when the request was made (time-of-day prices) of the
 * model that answered (the response's model, else the one asked for, else the agent's). Unknown
 * (null) when some request has tokens but no price; a flag says which model lacked one, or that
 * a request was priced as another model.
 */
export function sessionCost(
  requests: readonly PricedRequest[],
  priceOf: (model: string, at: Date) => Price | null,
  agentModel: string,
): SessionCost {
  let total = 0;
  const flags = new Set<string>();
  let unknown = false;
  const costs = requests.map((r): RequestCost => {
    if (r.costUsd !== null) {
      total += r.costUsd;
      return { costUsd: r.costUsd, basis: 'charged by the provider' };
    }
    if (!r.usage) return { costUsd: null, basis: null };
    const at = new Date(r.startedAt);
    const candidates = [r.usage.model, r.model, agentModel].filter((m): m is string => !!m);
    const priced = candidates.map((model) => ({ model, price: priceOf(model, at) })).find((c) => c.price !== null);
    if (priced === undefined) {
      unknown = true;
      flags.add(`cost: no list price for ${candidates[0] ?? agentModel}`);
      return { costUsd: null, basis: `no list price for ${candidates[0] ?? agentModel}` };
    }
    if (priced.model !== candidates[0]) flags.add(`cost: ${candidates[0]} has no list price; priced as ${priced.model}`);
    if ((r.usage.webSearches ?? 0) > 0 && priced.price!.webSearchPerK === undefined) flags.add(`cost: the web searches of ${priced.model} are not priced (the price list has no fee for them)`);
    const cost = costOf(r.usage, priced.price!);
    total += cost;
    const searches = r.usage.webSearches ?? 0;
    const fee = searches > 0 && priced.price!.webSearchPerK !== undefined ? ` + ${searches} web search(es) at $${priced.price!.webSearchPerK} per 1000` : '';
    return { costUsd: cost, basis: `${describePrice(priced.price!)}${fee}` };
  });
  return { costUsd: unknown ? null : total, flags: [...flags], requests: costs };
}

/** `catalog deepseek/deepseek-chat, 00:30–16:30 UTC: $0.27 input, $0.07 cache read, $0.27 cache write, $1.1 output per MTok`. */
export function describePrice(price: Price): string {
  const name = price.source === 'catalog' ? `catalog ${price.provider}/${price.model}` : `${price.source} ${price.model}`;
  const rates = `$${price.input} input, $${price.cacheRead} cache read, $${price.cacheWrite} cache write, $${price.output} output per MTok`;
  return `${name}${price.when === null ? '' : `, ${price.when}`}: ${rates}`;
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
