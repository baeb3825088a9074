import type { Payload } from './read-payloads.js';
import type { WireFormat } from '../types.js';

/** Responses API stream events that end a response (each carries the final response object). */
export const RESPONSES_FINAL_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** The final event of each wire format's stream, as a problem or an explanation names it. */
export const FINAL_EVENT: Readonly<Record<WireFormat, string>> = {
  'anthropic-messages': 'message_stop',
  'openai-responses': 'response.completed (or .incomplete / .failed)',
  'openai-chat': 'data: [DONE] (or a chunk with a finish_reason)',
  'gemini-generate': 'a chunk with a finishReason',
};

/**
 * The final event a stream lacks, or null when it has it: Anthropic `message_stop`; OpenAI
 * Responses `response.completed`, `.incomplete` or `.failed`; Chat Completions `data: [DONE]`
 * or, from servers that never send it, a chunk with a `finish_reason`; Gemini a chunk with a
 * `finishReason`. A stream without it was cut short, whatever came before (usage included).
 * Pure; only payloads that parsed count.
 */
export function missingFinalEvent(format: WireFormat, payloads: readonly Payload[], sawDone: boolean): string | null {
  const ended = (() => {
    switch (format) {
      case 'anthropic-messages':
        return payloads.some((p) => typeOf(p) === 'message_stop');
      case 'openai-responses':
        return payloads.some((p) => RESPONSES_FINAL_EVENTS.has(typeOf(p) ?? ''));
      case 'openai-chat':
        return sawDone || payloads.some((p) => choicesOf(p).some((c) => hasValue(c, 'finish_reason')));
      case 'gemini-generate':
        return payloads.some((p) => candidatesOf(p).some((c) => hasValue(c, 'finishReason')));
    }
  })();
  return ended ? null : FINAL_EVENT[format];
}

function typeOf(payload: Payload): string | null {
  const type = (payload.data as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : null;
}

function choicesOf(payload: Payload): unknown[] {
  const choices = (payload.data as { choices?: unknown } | null)?.choices;
  return Array.isArray(choices) ? choices : [];
}

function candidatesOf(payload: Payload): unknown[] {
  const candidates = (payload.data as { candidates?: unknown } | null)?.candidates;
  return Array.isArray(candidates) ? candidates : [];
}

function hasValue(item: unknown, key: string): boolean {
  const value = (item as Record<string, unknown> | null)?.[key];
  return value !== undefined && value !== null && value !== '';
}
