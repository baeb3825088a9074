import type { MeteredRequest } from '../../meter/index.js';
import type { RequestRow } from '../../store/index.js';
import type { RequestCost } from './account-session.js';

/**
 * The stored rows of a session's model requests: what the proxy recorded (the failure and its
 * explanation included), and each request's cost as priced when it was metered (`costs[i]` is
 * request `i`'s, from `sessionCost`). Reports only ever add these costs up.
 */
export function requestRowsOf(metered: readonly MeteredRequest[], costs: readonly RequestCost[]): RequestRow[] {
  return metered.map((r, i) => ({
    seq: r.seq,
    startedAt: r.startedAt,
    format: r.format,
    path: r.path,
    model: r.model,
    status: r.status,
    failure: r.failure,
    detail: r.detail,
    latencyMs: r.latencyMs,
    ttfbMs: r.ttfbMs,
    input: r.usage?.inputTokens ?? null,
    cacheRead: r.usage?.cacheReadTokens ?? null,
    cacheWrite: r.usage?.cacheWriteTokens ?? null,
    output: r.usage?.outputTokens ?? null,
    reasoning: r.usage?.reasoningTokens ?? null,
    costUsd: costs[i]?.costUsd ?? null,
    costBasis: costs[i]?.basis ?? null,
    quota: r.quota,
    withheld: r.withheld,
    providerToolUse: r.providerToolUse,
  }));
}
