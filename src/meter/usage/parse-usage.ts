import { parseAnthropicUsage } from './parse-anthropic-usage.js';
import { parseGeminiUsage } from './parse-gemini-usage.js';
import { parseOpenaiChatUsage } from './parse-openai-chat-usage.js';
import { parseOpenaiResponsesUsage } from './parse-openai-responses-usage.js';
import { type Payload, readPayloads } from './read-payloads.js';
import { missingFinalEvent } from './missing-final-event.js';
import type { ParseUsageResult, RequestUsage, WireFormat } from '../types.js';

/** Options of `parseUsage`. */
export interface ParseUsageOptions {
  /** True when `body` is the full SSE text of a streamed response; false for a JSON body. */
  readonly streamed: boolean;
}

/**
 * Reads the token usage of one model response, normalized (see `RequestUsage`), and whether a
 * stream reached its wire format's final event. Pure and never throws: a body without a
 * complete count gives `usage: null` and says why in `problems`; oddities that do not spoil
 * the count are reported next to the usage.
 */
export function parseUsage(format: WireFormat, body: string, options: ParseUsageOptions): ParseUsageResult {
  const { streamed } = options;
  const { payloads, problems, sawDone, malformed } = readPayloads(body, streamed);
  const ending = { missingFinalEvent: streamed ? missingFinalEvent(format, payloads, sawDone) : null, malformedPayloads: malformed };
  try {
    return { usage: usageOf(format, payloads, streamed, problems, sawDone), problems, ...ending };
  } catch (error) {
    // Safety net: metering must never take the proxy down, whatever a body holds.
    problems.push(`internal error while parsing ${format} usage: ${String(error)}`);
  }
  return { usage: null, problems, ...ending };
}

function usageOf(format: WireFormat, payloads: Payload[], streamed: boolean, problems: string[], sawDone: boolean): RequestUsage | null {
  switch (format) {
    case 'anthropic-messages':
      return parseAnthropicUsage(payloads, streamed, problems);
    case 'openai-responses':
      return parseOpenaiResponsesUsage(payloads, streamed, problems);
    case 'openai-chat':
      return parseOpenaiChatUsage(payloads, streamed, problems, sawDone);
    case 'gemini-generate':
      return parseGeminiUsage(payloads, streamed, problems);
  }
}
