import type { WireFormat } from '../../types.js';

/**
 * The body of the proxy's refusal, in the error shape of the request's own wire format, so the
 * harness shows the message as it shows any API error (and, being a 4xx other than 429, does not
 * retry it): Anthropic `{type: "error", error: {type, message}}`, OpenAI `{error: {message,
 * type, param, code}}`, Gemini `{error: {code, message, status}}`. A call of no known API
 * family gets the OpenAI shape with a `type` too (what most clients read).
 */
export function refusalBody(format: WireFormat | null, status: 400 | 404 | 413 | 415, message: string): string {
  const notFound = status === 404;
  switch (format) {
    case 'anthropic-messages':
      return JSON.stringify({ type: 'error', error: { type: notFound ? 'not_found_error' : 'invalid_request_error', message } });
    case 'gemini-generate':
      return JSON.stringify({ error: { code: status, message, status: notFound ? 'NOT_FOUND' : 'INVALID_ARGUMENT' } });
    default:
      return JSON.stringify({ type: 'error', error: { message, type: notFound ? 'not_found_error' : 'invalid_request_error', param: null, code: 'bakeoff_closed_web' } });
  }
}
