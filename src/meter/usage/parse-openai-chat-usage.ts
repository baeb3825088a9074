import { z } from 'zod';
import { InputDetails, openaiRequestUsage, OutputDetails } from './openai-usage.js';
import { parsePayload, recordApiError } from './parse-payload.js';
import type { Payload } from './read-payloads.js';
import { ReportedCost, TokenCount } from './token-count.js';
import type { RequestUsage } from '../types.js';

const ChatUsage = z.looseObject({
  prompt_tokens: TokenCount,
  prompt_tokens_details: InputDetails,
  completion_tokens: TokenCount,
  completion_tokens_details: OutputDetails,
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
  for (const payload of payloads) {
    if (recordApiError(payload, problems)) continue;
    const completion = parsePayload(ChatCompletion, payload.data, payload.where, problems);
    model = completion?.model ?? model;
    usage = completion?.usage ?? usage;
  }
  if (streamed && !sawDone) problems.push('no data: [DONE] (stream truncated?)');
  if (usage === null) {
    problems.push(
      streamed ? 'no chunk carried usage (stream truncated, or stream_options.include_usage not set?)' : 'no usage in the body',
    );
    return null;
  }
  const { prompt_tokens: input, prompt_tokens_details: inputDetails, completion_tokens: output, completion_tokens_details: outputDetails, cost } = usage;
  return openaiRequestUsage({ input, inputDetails, output, outputDetails, cost }, model, problems);
}
