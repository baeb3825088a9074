import type { RenderedReply } from './rendered-reply.js';
import { JSON_HEADERS } from './rendered-reply.js';
import type { ParsedRequest, ScriptReply, WireFormat } from './types.js';

/** The fault scripts: every generation request fails the same way. */
export const FAULT_SCRIPTS = ['500', '429', 'hang', 'malformed', 'truncated', 'disconnect'] as const;
export type FaultScript = (typeof FAULT_SCRIPTS)[number];

/**
 * The reply of a fault script: an HTTP error in the format's own error shape, a hang, a broken
 * stream, or a stream cut before its final event (`truncated`: the response ends cleanly;
 * `disconnect`: the connection is destroyed in the middle of an event).
 */
export function faultReply(script: FaultScript, format: WireFormat): ScriptReply {
  if (script === 'hang') return { kind: 'hang' };
  if (script === 'malformed') return { kind: 'malformed' };
  if (script === 'truncated') return { kind: 'truncated', end: 'clean' };
  if (script === 'disconnect') return { kind: 'truncated', end: 'disconnect' };
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

/**
 * The beginning of a streamed answer, without its end: the first half of its SSE events (never
 * the wire format's final one: `message_stop`, `response.completed`, the `finish_reason` chunk
 * and `[DONE]`, the chunk with `finishReason`), or for a Gemini JSON-array stream the array's
 * first item without the closing bracket. `clean`: the HTTP response then ends normally (a
 * complete chunked body); `disconnect`: the start of the next event's JSON is sent and the
 * connection is destroyed. A non-streamed answer has no final event to leave out and is given whole.
 */
export function truncated(valid: RenderedReply, request: Pick<ParsedRequest, 'streamed' | 'jsonArrayStream'>, end: 'clean' | 'disconnect'): RenderedReply {
  if (!request.streamed) return valid;
  let kept: string[];
  let next: string;
  if (request.jsonArrayStream) {
    const items = JSON.parse(valid.chunks.join('')) as unknown[];
    kept = [`[${JSON.stringify(items[0])}`];
    next = `,${JSON.stringify(items[1] ?? {})}]`;
  } else {
    const count = Math.max(1, Math.floor(valid.chunks.length / 2));
    kept = valid.chunks.slice(0, count);
    next = valid.chunks[count] ?? '';
  }
  if (end === 'clean') return { ...valid, chunks: kept };
  const data = next.indexOf('data: ');
  return { ...valid, chunks: [...kept, next.slice(0, (data === -1 ? 0 : data + 'data: '.length) + 16)], disconnect: true };
}
