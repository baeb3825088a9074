import type { RenderedReply } from './rendered-reply.js';
import { JSON_HEADERS } from './rendered-reply.js';
import type { ScriptReply, WireFormat } from './types.js';

/** The fault scripts: every generation request fails the same way. */
export const FAULT_SCRIPTS = ['500', '429', 'hang', 'malformed'] as const;
export type FaultScript = (typeof FAULT_SCRIPTS)[number];

/** The reply of a fault script: an HTTP error in the format's own error shape, a hang, or a broken stream. */
export function faultReply(script: FaultScript, format: WireFormat): ScriptReply {
  if (script === 'hang') return { kind: 'hang' };
  if (script === 'malformed') return { kind: 'malformed' };
  const status = Number(script);
  const headers = status === 429 ? { 'retry-after': '1' } : undefined;
  return { kind: 'error', status, body: errorBody(format, status, `scripted ${status} from the bakeoff model server`), ...(headers && { headers }) };
}

/** An API error body as each vendor shapes it. */
export function errorBody(format: WireFormat, status: number, message: string): unknown {
  const limited = status === 429;
  switch (format) {
    case 'anthropic-messages':
      return { type: 'error', error: { type: limited ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error', message } };
    case 'openai-responses':
    case 'openai-chat':
      return { error: { message, type: limited ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error', code: null, param: null } };
    case 'gemini-generate':
      return { error: { code: status, message, status: limited ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT' } };
  }
}

/**
 * A 200 answer cut off in the middle of its first JSON payload: the SSE `data:` (or the JSON
 * body) is not valid JSON and the stream ends without its terminal event.
 */
export function malformed(valid: RenderedReply): RenderedReply {
  const body = valid.chunks.join('');
  const start = body.indexOf('data: ');
  const cut = (start === -1 ? 0 : start + 'data: '.length) + 24;
  const streamed = start !== -1 && valid.headers['content-type'] !== JSON_HEADERS['content-type'];
  return { status: 200, headers: valid.headers, chunks: [body.slice(0, cut) + (streamed ? '\n\n' : '')] };
}
