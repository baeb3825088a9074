import { z } from 'zod';
import { createRequestUsage } from './create-request-usage.js';
import { TokenCount } from './token-count.js';
import type { RequestUsage } from '../types.js';

/** `prompt_tokens_details` (Chat Completions) or `input_tokens_details` (Responses); OpenRouter adds `cache_write_tokens`. */
export const InputDetails = z.looseObject({ cached_tokens: TokenCount.nullish(), cache_write_tokens: TokenCount.nullish() }).nullish();

/** `completion_tokens_details` (Chat Completions) or `output_tokens_details` (Responses). */
export const OutputDetails = z.looseObject({ reasoning_tokens: TokenCount.nullish() }).nullish();

/** OpenAI's usage counts, named alike for its two APIs. */
export interface OpenaiCounts {
  readonly input: number;
  readonly inputDetails: z.infer<typeof InputDetails>;
  readonly output: number;
  readonly outputDetails: z.infer<typeof OutputDetails>;
  readonly cost: number | null | undefined;
}

/**
 * The usage of an OpenAI response, Chat Completions or Responses (the same counts under other
 * names): the input already includes cached and cache-write tokens and the output the
 * reasoning tokens; a detail not sent is 0.
 */
export function openaiRequestUsage(counts: OpenaiCounts, model: string | null, problems: string[]): RequestUsage {
  return createRequestUsage(
    {
      inputTokens: counts.input,
      cacheReadTokens: counts.inputDetails?.cached_tokens ?? 0,
      cacheWriteTokens: counts.inputDetails?.cache_write_tokens ?? 0,
      outputTokens: counts.output,
      reasoningTokens: counts.outputDetails?.reasoning_tokens ?? 0,
      model,
      costUsd: counts.cost ?? null,
    },
    problems,
  );
}
