/** The model APIs the metering proxy understands, named after their wire format. */
export type WireFormat = 'anthropic-messages' | 'openai-responses' | 'openai-chat' | 'gemini-generate';

/**
 * Token counts of one model request, normalized across APIs.
 *
 * Invariants: `inputTokens` counts ALL input tokens (uncached + `cacheReadTokens` +
 * `cacheWriteTokens`), so the uncached part is `inputTokens - cacheReadTokens - cacheWriteTokens`;
 * `outputTokens` counts all generated tokens, `reasoningTokens` included.
 */
export interface RequestUsage {
  /** All input tokens of the request: uncached, read from cache and written to cache. */
  readonly inputTokens: number;
  /** Input tokens served from the provider's prompt cache (a part of `inputTokens`). */
  readonly cacheReadTokens: number;
  /** Input tokens written to the provider's prompt cache (a part of `inputTokens`). */
  readonly cacheWriteTokens: number;
  /** All generated tokens, reasoning/thinking included. */
  readonly outputTokens: number;
  /** Reasoning/thinking tokens (a part of `outputTokens`); 0 when the API does not report them. */
  readonly reasoningTokens: number;
  /** The model as the response names it, or null when the response does not. */
  readonly model: string | null;
  /** Cost the provider reported for the request (e.g. OpenRouter's `usage.cost`), else null. */
  readonly costUsd: number | null;
  /**
   * Web searches the provider ran for the request and bills apart from tokens (Anthropic's
   * `usage.server_tool_use.web_search_requests`); absent when the answer reports none. Only on
   * the open web: on the closed web such an answer voids its run.
   */
  readonly webSearches?: number;
}

/** What `parseUsage` returns: usage when it could be read, and everything that looked wrong. */
export interface ParseUsageResult {
  /** The request's usage, or null when the body does not carry a complete count. */
  readonly usage: RequestUsage | null;
  /** Human-readable descriptions of what was missing or malformed; empty when all was well. */
  readonly problems: string[];
  /**
   * For a stream: the wire format's final event when the stream lacks it (it was cut short:
   * `message_stop`, `response.completed …`, `data: [DONE] …`, `a chunk with a finishReason`);
   * null when it has it, and always null for a JSON body.
   */
  readonly missingFinalEvent: string | null;
  /** Payloads that arrived whole but are not JSON (a last event cut short does not count). */
  readonly malformedPayloads: number;
}
