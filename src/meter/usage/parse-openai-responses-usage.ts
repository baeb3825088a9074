import { z } from 'zod';
import { RESPONSES_FINAL_EVENTS } from './missing-final-event.js';
import { errorMessageOf } from './error-message-of.js';
import { InputDetails, openaiRequestUsage, OutputDetails } from './openai-usage.js';
import { parsePayload } from './parse-payload.js';
import type { Payload } from './read-payloads.js';
import { ReportedCost, TokenCount } from './token-count.js';
import type { RequestUsage } from '../types.js';

const ResponsesUsage = z.looseObject({
  input_tokens: TokenCount,
  input_tokens_details: InputDetails,
  output_tokens: TokenCount,
  output_tokens_details: OutputDetails,
  cost: ReportedCost.nullish(),
});

const ResponseObject = z.looseObject({
  model: z.string().nullish(),
  status: z.string().nullish(),
  usage: ResponsesUsage.nullish(),
  output: z.array(z.unknown()).nullish().catch(null),
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
    const parsed = parsePayload(ResponseObject, response, where, problems);
    if (parsed === null) continue;
    model = parsed.model ?? model;
    if (!streamed || RESPONSES_FINAL_EVENTS.has(type as string)) final = parsed;
    if (parsed.status === 'failed') problems.push(`${where}: response failed: ${parsed.error?.message ?? 'no message'}`);
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
  const { input_tokens: input, input_tokens_details: inputDetails, output_tokens: output, output_tokens_details: outputDetails, cost } = usage;
  const counted = openaiRequestUsage({ input, inputDetails, output, outputDetails, cost }, model, problems);
  // web searches are billed per call, apart from tokens (open web only): one per web_search_call of the final output
  const searches = (final.output ?? []).filter((item) => (item as { type?: unknown } | null)?.type === 'web_search_call').length;
  return searches > 0 ? { ...counted, webSearches: searches } : counted;
}

/** A Responses stream `error` event: `{"type":"error","code":…,"message":…}`. */
function describeStreamError(data: unknown): string {
  const { code, message } = (data ?? {}) as { code?: unknown; message?: unknown };
  return [code, message].filter((s) => typeof s === 'string' && s !== '').join(': ') || 'unknown error';
}
