import type { Upstream } from './proxy-types.js';
import type { WireFormat } from '../types.js';

/** Where one wire format's requests go, for records. Never holds a key. */
export interface UpstreamRoute {
  readonly format: WireFormat;
  /** The base URL, credentials and query removed. */
  readonly baseUrl: string;
  /** Names (never values) of the auth headers injected; null when no key is available. */
  readonly authHeaders: readonly string[] | null;
}

/** A secret-free description of an upstream: its name and each wire format's route. */
export interface UpstreamDescription {
  readonly name: string;
  readonly routes: readonly UpstreamRoute[];
}

const FORMATS: readonly WireFormat[] = ['anthropic-messages', 'openai-responses', 'openai-chat', 'gemini-generate'];

/** Describes an upstream for records and reports: URLs and header names only, no secrets. */
export function describeUpstream(upstream: Upstream): UpstreamDescription {
  const routes = FORMATS.map((format): UpstreamRoute => {
    let authHeaders: string[] | null;
    try {
      authHeaders = Object.keys(upstream.authHeaders(format)).map((h) => h.toLowerCase()).sort();
    } catch {
      authHeaders = null;
    }
    return { format, baseUrl: safeUrl(upstream.baseUrl(format)), authHeaders };
  });
  return { name: safeUrl(upstream.name), routes };
}

/** Drops userinfo, query and fragment from a URL; returns other strings unchanged. */
function safeUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return value;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return value;
  }
}
