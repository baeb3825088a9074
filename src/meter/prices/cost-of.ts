/** Token counts to price, normalized as `RequestUsage` counts them. */
export interface PricedTokens {
  /** ALL input: uncached + cache read + cache write. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** All output, reasoning included. */
  readonly outputTokens: number;
}

/** Per-million-token rates of each class (a `ModelPrice` fits). */
export interface TokenRates {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
}

/**
 * Cost in USD of tokens at flat per-MTok rates: uncached input (input − cache read − cache
 * write, never below 0), cache reads, cache writes and output each at its own rate. Pure; no
 * tiers, so a million tokens summed over a run cost the same as the same tokens request by request.
 */
export function costOf(tokens: PricedTokens, price: TokenRates): number {
  const uncached = Math.max(0, tokens.inputTokens - tokens.cacheReadTokens - tokens.cacheWriteTokens);
  return (
    (uncached * price.input +
      tokens.cacheReadTokens * price.cacheRead +
      tokens.cacheWriteTokens * price.cacheWrite +
      tokens.outputTokens * price.output) /
    1_000_000
  );
}
