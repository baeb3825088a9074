import type { RequestUsage, WireFormat } from './types.js';

/**
 * The fixed token counts every scripted answer carries. The numbers are distinct so that a
 * test can tell which field a harness or the meter read: uncached input 1000, cache read 200,
 * cache write 30, output 40 of which reasoning 5.
 */
export const SCRIPTED_COUNTS = { uncached: 1000, cacheRead: 200, cacheWrite: 30, output: 40, reasoning: 5 } as const;

const C = SCRIPTED_COUNTS;

/**
 * The usage every answer in `format` carries, as the meter's `parseUsage` normalizes it.
 * OpenAI and Gemini have no cache-write field, so their cache write is 0 (and their input
 * holds only uncached + cache read).
 */
export function scriptedUsage(format: WireFormat, model: string | null = null): RequestUsage {
  const cacheWrite = format === 'anthropic-messages' ? C.cacheWrite : 0;
  return {
    inputTokens: C.uncached + C.cacheRead + cacheWrite,
    cacheReadTokens: C.cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: C.output,
    reasoningTokens: C.reasoning,
    model,
    costUsd: null,
  };
}

/** Anthropic `usage`: `input_tokens` is the UNCACHED input; `output_tokens` includes thinking. */
export function anthropicUsage(): Record<string, unknown> {
  return {
    input_tokens: C.uncached,
    cache_creation_input_tokens: C.cacheWrite,
    cache_read_input_tokens: C.cacheRead,
    output_tokens: C.output,
    // Not documented by Anthropic, but Claude Code reads it (agent-clis.md §3.1).
    output_tokens_details: { thinking_tokens: C.reasoning },
  };
}

/** Responses `usage`: `input_tokens` includes cached, `output_tokens` includes reasoning. */
export function responsesUsage(): Record<string, unknown> {
  const input = C.uncached + C.cacheRead;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: C.cacheRead },
    output_tokens: C.output,
    output_tokens_details: { reasoning_tokens: C.reasoning },
    total_tokens: input + C.output,
  };
}

/** Chat Completions `usage`: `prompt_tokens` includes cached, `completion_tokens` includes reasoning. */
export function chatUsage(): Record<string, unknown> {
  const input = C.uncached + C.cacheRead;
  return {
    prompt_tokens: input,
    completion_tokens: C.output,
    total_tokens: input + C.output,
    prompt_tokens_details: { cached_tokens: C.cacheRead },
    completion_tokens_details: { reasoning_tokens: C.reasoning },
  };
}

/** Gemini `usageMetadata`: `promptTokenCount` includes cached, `candidatesTokenCount` EXCLUDES thoughts. */
export function geminiUsage(): Record<string, unknown> {
  const input = C.uncached + C.cacheRead;
  return {
    promptTokenCount: input,
    cachedContentTokenCount: C.cacheRead,
    candidatesTokenCount: C.output - C.reasoning,
    thoughtsTokenCount: C.reasoning,
    totalTokenCount: input + C.output,
  };
}
