/**
 * The client's path and query with any `key=` query parameter removed: Gemini clients may send
 * their (dummy) key there instead of in `x-goog-api-key`, and the proxy injects the real one as
 * a header. Everything else, `?beta=true` and `?alt=sse` included, is kept byte for byte.
 */
export function withoutKeyParam(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  if (q === -1) return pathAndQuery;
  const kept = pathAndQuery
    .slice(q + 1)
    .split('&')
    .filter((pair) => pair !== '' && pair.split('=', 1)[0] !== 'key');
  return kept.length === 0 ? pathAndQuery.slice(0, q) : `${pathAndQuery.slice(0, q)}?${kept.join('&')}`;
}

/**
 * The upstream URL of a request: the base URL's origin and path prefix, then the client's path
 * and query. A client path that already starts with the base's prefix is not prefixed twice, so
 * an OpenRouter harness may call `/v1/chat/completions` or `/api/v1/chat/completions` against
 * base `https://openrouter.ai/api` and both reach `/api/v1/chat/completions`.
 */
export function targetUrl(baseUrl: string, pathAndQuery: string): URL {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  const path = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
  const pathOnly = path.split('?', 1)[0]!;
  const joined = prefix === '' || pathOnly === prefix || pathOnly.startsWith(`${prefix}/`) ? path : `${prefix}${path}`;
  // Concatenated, not resolved: `new URL('//evil.example/x', origin)` would change the host,
  // and the injected key must only ever reach the upstream's own origin.
  return new URL(`${base.origin}${joined}`);
}
