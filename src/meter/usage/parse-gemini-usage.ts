import { z } from 'zod';
import { createRequestUsage } from './create-request-usage.js';
import { parsePayload, recordApiError } from './parse-payload.js';
import type { Payload } from './read-payloads.js';
import { TokenCount } from './token-count.js';
import type { RequestUsage } from '../types.js';

const UsageMetadata = z.looseObject({
  promptTokenCount: TokenCount.nullish(),
  cachedContentTokenCount: TokenCount.nullish(),
  toolUsePromptTokenCount: TokenCount.nullish(),
  candidatesTokenCount: TokenCount.nullish(),
  thoughtsTokenCount: TokenCount.nullish(),
  totalTokenCount: TokenCount.nullish(),
});
type UsageMetadata = z.infer<typeof UsageMetadata>;

const GenerateContentResponse = z.looseObject({
  modelVersion: z.string().nullish(),
  usageMetadata: UsageMetadata.nullish(),
  candidates: z.array(z.looseObject({ finishReason: z.string().nullish() })).nullish(),
});

/**
 * Usage of a Gemini generateContent / streamGenerateContent response. `promptTokenCount`
 * includes `cachedContentTokenCount`; `candidatesTokenCount` EXCLUDES `thoughtsTokenCount`, so
 * output = candidates + thoughts. `toolUsePromptTokenCount` (server-side tool results) counts
 * as input. Streamed: the last chunk's `usageMetadata`, and only once a chunk carried a
 * `finishReason` (earlier chunks hold running counts).
 */
export function parseGeminiUsage(payloads: Payload[], streamed: boolean, problems: string[]): RequestUsage | null {
  let usage: UsageMetadata | null = null;
  let model: string | null = null;
  let finished = false;
  for (const payload of payloads) {
    if (recordApiError(payload, problems)) continue;
    const chunk = parsePayload(GenerateContentResponse, payload.data, payload.where, problems);
    if (chunk === null) continue;
    model = chunk.modelVersion ?? model;
    usage = chunk.usageMetadata ?? usage;
    if (chunk.candidates?.some((c) => c.finishReason != null)) finished = true;
  }
  if (usage?.promptTokenCount == null) {
    problems.push('no usageMetadata.promptTokenCount in any chunk');
    return null;
  }
  if (streamed && !finished) {
    problems.push('no chunk with a finishReason: the counts are partial (stream truncated?)');
    return null;
  }
  const input = usage.promptTokenCount + (usage.toolUsePromptTokenCount ?? 0);
  const output = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
  if (usage.totalTokenCount != null && usage.totalTokenCount !== input + output) {
    problems.push(`totalTokenCount ${usage.totalTokenCount} differs from input ${input} + output ${output}`);
  }
  return createRequestUsage(
    {
      inputTokens: input,
      cacheReadTokens: usage.cachedContentTokenCount ?? 0,
      cacheWriteTokens: 0, // Gemini charges cache storage by time, not a per-request write
      outputTokens: output,
      reasoningTokens: usage.thoughtsTokenCount ?? 0,
      model,
      costUsd: null,
    },
    problems,
  );
}
