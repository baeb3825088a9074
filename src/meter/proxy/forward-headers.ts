import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Request headers the proxy never forwards: the client's credentials and Codex's account id (the sandbox holds dummies;
 * the proxy injects the real key), `accept-encoding` (so the body stays readable for metering),
 * `host` (set from the upstream URL) and `expect` (the proxy already answered 100-continue).
 */
const DROPPED_REQUEST = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'chatgpt-account-id', 'accept-encoding', 'host', 'expect']);

/**
 * The headers to send upstream: the client's, minus hop-by-hop, credentials and the rest of
 * `DROPPED_REQUEST`, plus `inject` (auth and extra headers; names compared case-insensitively,
 * injected values win).
 */
export function upstreamRequestHeaders(incoming: IncomingHttpHeaders, inject: Readonly<Record<string, string>>): OutgoingHttpHeaders {
  const dropped = connectionTokens(incoming);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || DROPPED_REQUEST.has(name) || dropped.has(name)) continue;
    out[name] = value;
  }
  for (const [name, value] of Object.entries(inject)) out[name.toLowerCase()] = value;
  return out;
}

/** The upstream's response headers for the client: everything but hop-by-hop headers. */
export function clientResponseHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const dropped = connectionTokens(incoming);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || HOP_BY_HOP.has(name) || dropped.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** Header names listed in `Connection` are hop-by-hop too. */
function connectionTokens(headers: IncomingHttpHeaders): Set<string> {
  const value = headers.connection;
  if (value === undefined) return new Set();
  return new Set(value.split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
}
