import { z } from 'zod';
import { createRequestUsage } from './create-request-usage.js';
import { parsePayload, recordApiError } from './parse-payload.js';
import type { Payload } from './read-payloads.js';
import { TokenCount } from './token-count.js';
import type { RequestUsage } from '../types.js';

// Every field is nullable: `message_delta.usage` repeats only what changed (its counts are
// cumulative), and some gateways send `cache_*: null`.
const AnthropicUsage = z.looseObject({
  input_tokens: TokenCount.nullish(),
  cache_read_input_tokens: TokenCount.nullish(),
  cache_creation_input_tokens: TokenCount.nullish(),
  output_tokens: TokenCount.nullish(),
  // Not documented by Anthropic; Claude Code reads it (agent-clis.md §3.1), so honour it if sent.
  output_tokens_details: z.looseObject({ thinking_tokens: TokenCount.nullish() }).nullish(),
  // server tools (web search) billed per request, apart from tokens
  server_tool_use: z.looseObject({ web_search_requests: TokenCount.nullish() }).nullish(),
});
type AnthropicUsage = z.infer<typeof AnthropicUsage>;

const Message = z.looseObject({ model: z.string().nullish(), usage: AnthropicUsage });
const MessageStart = z.looseObject({ message: Message });
const MessageDelta = z.looseObject({ usage: AnthropicUsage });

interface Counts {
  uncached?: number;
  cacheRead?: number;
  cacheWrite?: number;
  output?: number;
  thinking?: number;
  webSearches?: number;
}

/**
 * Usage of an Anthropic Messages response. `input_tokens` is the UNCACHED input, so the
 * normalized input is `input_tokens + cache_read_input_tokens + cache_creation_input_tokens`.
 * Streamed: `message_start.message.usage` gives input and cache counts, the last
 * `message_delta.usage` the cumulative output (the start's `output_tokens` is a placeholder).
 */
export function parseAnthropicUsage(payloads: Payload[], streamed: boolean, problems: string[]): RequestUsage | null {
  const counts: Counts = {};
  let model: string | null = null;
  let sawDelta = false;
  let sawStop = false;
  for (const payload of payloads) {
    if (recordApiError(payload, problems)) continue;
    const { data, where } = payload;
    const type = (data as { type?: unknown } | null)?.type;
    if (!streamed || type === 'message_start') {
      const message = parsePayload(streamed ? MessageStart.transform((d) => d.message) : Message, data, where, problems);
      if (message !== null) {
        model = message.model ?? model;
        merge(counts, message.usage);
      }
    } else if (type === 'message_delta') {
      const delta = parsePayload(MessageDelta, data, where, problems);
      if (delta !== null) {
        sawDelta = true;
        merge(counts, delta.usage);
      }
    } else if (type === 'message_stop') sawStop = true;
  }
  if (counts.uncached === undefined) {
    problems.push(streamed ? 'no message_start event with usage.input_tokens' : 'no usage.input_tokens in the body');
    return null;
  }
  if (streamed && !sawDelta) {
    problems.push('no message_delta event with usage: the output count is unknown (stream truncated?)');
    return null;
  }
  if (counts.output === undefined) {
    problems.push('no usage.output_tokens');
    return null;
  }
  if (streamed && !sawStop) problems.push('no message_stop event (stream truncated after message_delta?)');
  const cacheRead = counts.cacheRead ?? 0;
  const cacheWrite = counts.cacheWrite ?? 0;
  return createRequestUsage(
    {
      inputTokens: counts.uncached + cacheRead + cacheWrite,
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
      outputTokens: counts.output,
      reasoningTokens: counts.thinking ?? 0,
      model,
      costUsd: null,
      ...(counts.webSearches ? { webSearches: counts.webSearches } : {}),
    },
    problems,
  );
}

/** Later non-null values win: the counts in `message_delta` are cumulative. */
function merge(counts: Counts, usage: AnthropicUsage): void {
  counts.uncached = usage.input_tokens ?? counts.uncached;
  counts.cacheRead = usage.cache_read_input_tokens ?? counts.cacheRead;
  counts.cacheWrite = usage.cache_creation_input_tokens ?? counts.cacheWrite;
  counts.output = usage.output_tokens ?? counts.output;
  counts.thinking = usage.output_tokens_details?.thinking_tokens ?? counts.thinking;
  counts.webSearches = usage.server_tool_use?.web_search_requests ?? counts.webSearches;
}
