import { parseAnthropicUsage } from './parse-anthropic-usage.js';
import { parseGeminiUsage } from './parse-gemini-usage.js';
import { parseOpenaiChatUsage } from './parse-openai-chat-usage.js';
import { parseOpenaiResponsesUsage } from './parse-openai-responses-usage.js';
import { readPayloads } from './read-payloads.js';
import type { ParseUsageResult, WireFormat } from './types.js';

/** Options of `parseUsage`. */
export interface ParseUsageOptions {
  /** True when `body` is the full SSE text of a streamed response; false for a JSON body. */
  readonly streamed: boolean;
}

/**
 * Reads the token usage of one model response, normalized (see `RequestUsage`). Pure and
 * never throws: a body without a complete count gives `usage: null` and says why in
 * `problems`; oddities that do not spoil the count are reported next to the usage.
 */
export function parseUsage(format: WireFormat, body: string, options: ParseUsageOptions): ParseUsageResult {
  const { streamed } = options;
  const { payloads, problems, sawDone } = readPayloads(body, streamed);
  try {
    switch (format) {
      case 'anthropic-messages':
        return { usage: parseAnthropicUsage(payloads, streamed, problems), problems };
      case 'openai-responses':
        return { usage: parseOpenaiResponsesUsage(payloads, streamed, problems), problems };
      case 'openai-chat':
        return { usage: parseOpenaiChatUsage(payloads, streamed, problems, sawDone), problems };
      case 'gemini-generate':
        return { usage: parseGeminiUsage(payloads, streamed, problems), problems };
    }
  } catch (error) {
    // Safety net: metering must never take the proxy down, whatever a body holds.
    problems.push(`internal error while parsing ${format} usage: ${String(error)}`);
  }
  return { usage: null, problems };
}
