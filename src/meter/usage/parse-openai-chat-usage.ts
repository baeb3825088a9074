import { z } from 'zod';
import { createRequestUsage } from './create-request-usage.js';
import { describeIssues } from './describe-issues.js';
import { errorMessageOf } from './error-message-of.js';
import type { Payload } from './read-payloads.js';
import { ReportedCost, TokenCount } from './token-count.js';
import type { RequestUsage } from '../types.js';

const ChatUsage = z.looseObject({
  prompt_tokens: TokenCount,
  // OpenRouter adds `cache_write_tokens` next to `cached_tokens` (both inside prompt_tokens).
  prompt_tokens_details: z
    .looseObject({ cached_tokens: TokenCount.nullish(), cache_write_tokens: TokenCount.nullish() })
    .nullish(),
  completion_tokens: TokenCount,
  completion_tokens_details: z.looseObject({ reasoning_tokens: TokenCount.nullish() }).nullish(),
  cost: ReportedCost.nullish(),
});
type ChatUsage = z.infer<typeof ChatUsage>;

const ChatCompletion = z.looseObject({ model: z.string().nullish(), usage: ChatUsage.nullish() });

/**
 * Usage of an OpenAI Chat Completions response. `prompt_tokens` already includes
 * `prompt_tokens_details.cached_tokens`; `completion_tokens` already includes
 * `completion_tokens_details.reasoning_tokens`. Streamed: the last chunk carrying `usage`
 * (sent only with `stream_options.include_usage`, or always by OpenRouter).
 */
export function parseOpenaiChatUsage(
  payloads: Payload[],
  streamed: boolean,
  problems: string[],
  sawDone: boolean,
): RequestUsage | null {
  let usage: ChatUsage | null = null;
  let model: string | null = null;
  for (const { data, where } of payloads) {
    const error = errorMessageOf(data);
    if (error !== null) {
      problems.push(`${where}: API error: ${error}`);
      continue;
    }
    const parsed = ChatCompletion.safeParse(data);
    if (!parsed.success) {
      problems.push(...describeIssues(where, parsed.error));
      continue;
    }
    model = parsed.data.model ?? model;
    usage = parsed.data.usage ?? usage;
  }
  if (streamed && !sawDone) problems.push('no data: [DONE] (stream truncated?)');
  if (usage === null) {
    problems.push(
      streamed ? 'no chunk carried usage (stream truncated, or stream_options.include_usage not set?)' : 'no usage in the body',
    );
    return null;
  }
  return createRequestUsage(
    {
      inputTokens: usage.prompt_tokens,
      cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
      cacheWriteTokens: usage.prompt_tokens_details?.cache_write_tokens ?? 0,
      outputTokens: usage.completion_tokens,
      reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
      model,
      costUsd: usage.cost ?? null,
    },
    problems,
  );
}
