import { wireFormatOf } from '../meter/proxy/wire-format-of.js';
import type { WireFormat } from './types.js';

/** What a request to the model server asks for. */
export type Route =
  | { readonly kind: 'generate'; readonly format: WireFormat }
  | { readonly kind: 'count-tokens'; readonly format: 'anthropic-messages' | 'gemini-generate' }
  | { readonly kind: 'list-models'; readonly gemini: boolean }
  | { readonly kind: 'hello' }
  | { readonly kind: 'not-found' };

/**
 * Routes by method and path suffix, like the meter (any base-URL prefix and query work):
 * generation calls of the four formats, `…/messages/count_tokens`, `…/models/{m}:countTokens`,
 * `GET …/models` (Gemini's list under `/v1beta/`), and `HEAD` (Claude Code's pre-warm).
 */
export function routeOf(method: string, url: string): Route {
  const format = wireFormatOf(method, url);
  if (format !== null) return { kind: 'generate', format };
  const path = (url.split(/[?#]/, 1)[0] ?? '').replace(/%3a/gi, ':').replace(/\/+$/, '');
  const verb = method.toUpperCase();
  if (verb === 'HEAD') return { kind: 'hello' };
  if (verb === 'POST' && path.endsWith('/messages/count_tokens')) return { kind: 'count-tokens', format: 'anthropic-messages' };
  if (verb === 'POST' && /\/models\/[^/]+:counttokens$/i.test(path)) return { kind: 'count-tokens', format: 'gemini-generate' };
  if (verb === 'GET' && path.endsWith('/models')) return { kind: 'list-models', gemini: path.includes('/v1beta/') };
  return { kind: 'not-found' };
}
