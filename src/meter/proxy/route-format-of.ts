import type { IncomingHttpHeaders } from 'node:http';
import type { WireFormat } from '../types.js';
import { wireFormatOf } from './wire-format-of.js';

/**
 * The API family a request belongs to, for routing and auth only: its wire format when it is a
 * generation call, else a guess from the path and the client's headers (`count_tokens` and
 * `anthropic-version` → Anthropic, `/models/…:` and `x-goog-api-key` → Gemini, a Bearer token →
 * OpenAI). Null when nothing tells. Metering still uses `wireFormatOf` alone.
 */
export function routeFormatOf(method: string, path: string, headers: IncomingHttpHeaders): WireFormat | null {
  const format = wireFormatOf(method, path);
  if (format !== null) return format;
  const p = path.split('?', 1)[0]!.replace(/%3a/gi, ':');
  if (p.includes('/messages') || headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined) {
    return 'anthropic-messages';
  }
  if (/\/models\/[^/]+:/.test(p) || headers['x-goog-api-key'] !== undefined || /[?&]key=/.test(path)) return 'gemini-generate';
  if (headers.authorization !== undefined || p.includes('/responses') || p.includes('/chat/')) return 'openai-chat';
  return null;
}
