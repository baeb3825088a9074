import type { WireFormat } from '../types.js';

const GEMINI_GENERATE = /\/models\/[^/]+:(?:stream)?generatecontent$/i;

/**
 * The wire format of a model request, from its method and URL path (query allowed), or null
 * when the request is not a generation call (e.g. `GET /v1/models`, `/messages/count_tokens`,
 * `:countTokens`). Paths are matched by suffix so that any base-URL prefix works.
 */
export function wireFormatOf(method: string, path: string): WireFormat | null {
  if (method.toUpperCase() !== 'POST') return null;
  let p = path.split(/[?#]/, 1)[0] ?? '';
  p = p.replace(/%3a/gi, ':').replace(/\/+$/, '');
  if (p.endsWith('/messages')) return 'anthropic-messages';
  if (p.endsWith('/responses')) return 'openai-responses';
  if (p.endsWith('/chat/completions')) return 'openai-chat';
  if (GEMINI_GENERATE.test(p)) return 'gemini-generate';
  return null;
}
