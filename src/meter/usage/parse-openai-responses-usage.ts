import { z } from 'zod';
import { createRequestUsage } from './create-request-usage.js';
import { describeIssues } from './describe-issues.js';
import { RESPONSES_FINAL_EVENTS } from './missing-final-event.js';
import { errorMessageOf } from './error-message-of.js';
import type { Payload } from './read-payloads.js';
import { ReportedCost, TokenCount } from './token-count.js';
import type { RequestUsage } from '../types.js';

const ResponsesUsage = z.looseObject({
  input_tokens: TokenCount,
  input_tokens_details: z
    .looseObject({ cached_tokens: TokenCount.nullish(), cache_write_tokens: TokenCount.nullish() })
    .nullish(),
  output_tokens: TokenCount,
  output_tokens_details: z.looseObject({ reasoning_tokens: TokenCount.nullish() }).nullish(),
  cost: ReportedCost.nullish(),
});

const ResponseObject = z.looseObject({
  model: z.string().nullish(),
  status: z.string().nullish(),
  usage: ResponsesUsage.nullish(),
  error: z.looseObject({ message: z.string().nullish() }).nullish(),
});
type ResponseObject = z.infer<typeof ResponseObject>;


/**
 * Usage of an OpenAI Responses API response. `input_tokens` already includes
 * `input_tokens_details.cached_tokens`; `output_tokens` already includes
 * `output_tokens_details.reasoning_tokens`. Streamed: the `response` of the last
 * `response.completed` (or `.incomplete` / `.failed`) event.
 */
export function parseOpenaiResponsesUsage(payloads: Payload[], streamed: boolean, problems: string[]): RequestUsage | null {
  let final: ResponseObject | null = null;
  let model: string | null = null;
  for (const { data, where } of payloads) {
    const type = (data as { type?: unknown } | null)?.type;
    // A failed response object has its own `error` field: that is not an error body.
    const isResponse = (data as { object?: unknown } | null)?.object === 'response';
    const error = type === 'error' ? describeStreamError(data) : isResponse ? null : errorMessageOf(data);
    if (error !== null) {
      problems.push(`${where}: API error: ${error}`);
      continue;
    }
    const response = streamed ? (data as { response?: unknown } | null)?.response : data;
    if (streamed && (typeof type !== 'string' || response === undefined)) continue;
    if (streamed && !RESPONSES_FINAL_EVENTS.has(type as string) && type !== 'response.created') continue;
    const parsed = ResponseObject.safeParse(response);
    if (!parsed.success) {
      problems.push(...describeIssues(where, parsed.error));
      continue;
    }
    model = parsed.data.model ?? model;
    if (!streamed || RESPONSES_FINAL_EVENTS.has(type as string)) final = parsed.data;
    if (parsed.data.status === 'failed') problems.push(`${where}: response failed: ${parsed.data.error?.message ?? 'no message'}`);
  }
  if (final === null) {
    problems.push(streamed ? 'no response.completed event (stream truncated?)' : 'no response object in the body');
    return null;
  }
  const usage = final.usage;
  if (usage == null) {
    problems.push('the final response carries no usage');
    return null;
  }
  return createRequestUsage(
    {
      inputTokens: usage.input_tokens,
      cacheReadTokens: usage.input_tokens_details?.cached_tokens ?? 0,
      cacheWriteTokens: usage.input_tokens_details?.cache_write_tokens ?? 0,
      outputTokens: usage.output_tokens,
      reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
      model,
      costUsd: usage.cost ?? null,
    },
    problems,
  );
}

/** A Responses stream `error` event: `{"type":"error","code":…,"message":…}`. */
function describeStreamError(data: unknown): string {
  const { code, message } = (data ?? {}) as { code?: unknown; message?: unknown };
  return [code, message].filter((s) => typeof s === 'string' && s !== '').join(': ') || 'unknown error';
}
