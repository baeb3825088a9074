const GEMINI_MODEL = /\/models\/([^/:?#]+)(?::|%3a)/i;

/**
 * The model a request asks for: the Gemini URL path's (`/v1beta/models/<m>:streamGenerateContent`),
 * else the request body's top-level `model` string. Null when neither names one (or the body is
 * not JSON). Never throws.
 */
export function requestModelOf(path: string, body: string): string | null {
  try {
    const fromPath = GEMINI_MODEL.exec(path.split('?', 1)[0]!)?.[1];
    if (fromPath !== undefined) return decodeURIComponent(fromPath);
    if (body === '') return null;
    const data = JSON.parse(body) as unknown;
    const model = typeof data === 'object' && data !== null ? (data as { model?: unknown }).model : undefined;
    return typeof model === 'string' && model !== '' ? model : null;
  } catch {
    return null;
  }
}
