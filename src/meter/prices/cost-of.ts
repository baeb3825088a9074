/** Token counts to price, normalized as `RequestUsage` counts them. */
export interface PricedTokens {
  /** ALL input: uncached + cache read + cache write. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** All output, reasoning included. */
  readonly outputTokens: number;
  /** Server-side web searches billed apart from tokens (open web only); absent: none. */
  readonly webSearches?: number;
}

/** Per-million-token rates of each class (a `ModelPrice` fits). */
export interface TokenRates {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
  /** USD per 1000 server-side web searches; absent: the price list has none, and searches cost nothing here. */
  readonly webSearchPerK?: number;
}

/**
 * Cost in USD of tokens at flat per-MTok rates: uncached input (input − cache read − cache
 * write, never below 0), cache reads, cache writes and output each at its own rate. Pure; no
 * tiers, so a million tokens summed over a run cost the same as the same tokens request by request.
 * Web searches the answer reports (the open web) add their fee where the price lists one.
 */
export function costOf(tokens: PricedTokens, price: TokenRates): number {
  const uncached = Math.max(0, tokens.inputTokens - tokens.cacheReadTokens - tokens.cacheWriteTokens);
  return (
    (uncached * price.input +
      tokens.cacheReadTokens * price.cacheRead +
      tokens.cacheWriteTokens * price.cacheWrite +
      tokens.outputTokens * price.output) /
      1_000_000 +
    ((tokens.webSearches ?? 0) * (price.webSearchPerK ?? 0)) / 1000
  );
}
