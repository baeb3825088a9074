import type { WireFormat } from '../../types.js';
import { wireFormatOf } from '../wire-format-of.js';

/**
 * A request the proxy relays: a generation or token count whose body the tool policy of
 * `format` inspects first, a model listing, or a `HEAD` (a connection pre-warm, no body either way).
 */
export type Endpoint =
  | { readonly kind: 'inspected'; readonly format: WireFormat; readonly what: string }
  | { readonly kind: 'plain'; readonly what: string };

/** One entry of the endpoint table: the only calls the proxy relays (for the docs and the tests). */
export interface EndpointRule {
  readonly method: string;
  /** The path, by suffix (any base-URL prefix, `?query` allowed). */
  readonly path: string;
  readonly what: string;
  /** The wire format whose tool policy reads the body; null: no body to read. */
  readonly format: WireFormat | null;
  /** A path that must match (a unit test). */
  readonly example: string;
}

/** Every endpoint the proxy relays. Anything else (batches, files, containers, assistants, cached contents …) is refused. */
export const ENDPOINTS: readonly EndpointRule[] = [
  { method: 'POST', path: '…/messages', what: 'Anthropic generation', format: 'anthropic-messages', example: '/v1/messages?beta=true' },
  { method: 'POST', path: '…/messages/count_tokens', what: 'Anthropic token count', format: 'anthropic-messages', example: '/v1/messages/count_tokens?beta=true' },
  { method: 'POST', path: '…/responses', what: 'OpenAI Responses generation (the ChatGPT/Codex backend too)', format: 'openai-responses', example: '/backend-api/codex/responses' },
  { method: 'POST', path: '…/responses/compact', what: 'Responses compaction (Codex)', format: 'openai-responses', example: '/v1/responses/compact' },
  { method: 'POST', path: '…/responses/input_tokens', what: 'Responses token count', format: 'openai-responses', example: '/v1/responses/input_tokens' },
  { method: 'POST', path: '…/chat/completions', what: 'Chat Completions generation', format: 'openai-chat', example: '/api/v1/chat/completions' },
  { method: 'POST', path: '…/models/<m>:generateContent | :streamGenerateContent', what: 'Gemini generation', format: 'gemini-generate', example: '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse' },
  { method: 'POST', path: '…/models/<m>:countTokens', what: 'Gemini token count', format: 'gemini-generate', example: '/v1beta/models/gemini-2.5-pro:countTokens' },
  { method: 'GET', path: '…/models, …/models/<m>', what: 'model listing', format: null, example: '/v1beta/models/gemini-2.5-pro' },
  { method: 'HEAD', path: 'any', what: 'connection pre-warm', format: null, example: '/api/hello' },
];

/** Dot segments, encoded slashes, dots or backslashes: a server may resolve them to another path than the one matched. */
const TRICKY_PATH = /(^|\/)\.\.?(\/|$)|%2f|%2e|%5c|\\/i;

/** The endpoint a request calls, or null when the proxy does not relay it. Paths compare by suffix, `%3A` as `:`, without the query. */
export function endpointOf(method: string, path: string): Endpoint | null {
  const verb = method.toUpperCase();
  // a path the upstream could normalize into another endpoint (`/v1/models/../files`, `%2F`) is never relayed
  if (TRICKY_PATH.test(path.split(/[?#]/, 1)[0] ?? '')) return null;
  const format = wireFormatOf(verb, path);
  if (format !== null) return { kind: 'inspected', format, what: `${verb} generation` };
  const p = (path.split(/[?#]/, 1)[0] ?? '').replace(/%3a/gi, ':').replace(/\/+$/, '');
  if (verb === 'HEAD') return { kind: 'plain', what: 'HEAD' };
  if (verb === 'POST') {
    if (p.endsWith('/messages/count_tokens')) return { kind: 'inspected', format: 'anthropic-messages', what: 'token count' };
    if (p.endsWith('/responses/compact') || p.endsWith('/responses/input_tokens')) return { kind: 'inspected', format: 'openai-responses', what: p.slice(p.lastIndexOf('/') + 1) };
    if (/\/models\/[^/]+:counttokens$/i.test(p)) return { kind: 'inspected', format: 'gemini-generate', what: 'token count' };
  }
  if (verb === 'GET' && /\/models(\/[^/:]+)?$/.test(p)) return { kind: 'plain', what: 'model listing' };
  return null;
}
