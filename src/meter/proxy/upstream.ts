import { UserError } from '../../errors.js';
import type { Upstream } from './proxy-types.js';
import type { WireFormat } from '../types.js';

export type { Upstream } from './proxy-types.js';
export { describeUpstream, type UpstreamDescription, type UpstreamRoute } from './describe-upstream.js';

/** Options of `upstreamFor`. */
export interface UpstreamForOptions {
  /**
   * The wire formats the agents will speak. For `vendor`, the key of each is checked now, so a
   * missing key is a user error before any run; a format not listed whose key is missing fails
   * its requests with `auth` instead. Default: none checked up front.
   */
  readonly formats?: readonly WireFormat[];
}

const VENDOR_BASE: Record<WireFormat, string> = {
  'anthropic-messages': 'https://api.anthropic.com',
  'openai-responses': 'https://api.openai.com',
  'openai-chat': 'https://api.openai.com',
  'gemini-generate': 'https://generativelanguage.googleapis.com',
};
const VENDOR_KEY: Record<WireFormat, readonly string[]> = {
  'anthropic-messages': ['ANTHROPIC_API_KEY'],
  'openai-responses': ['OPENAI_API_KEY'],
  'openai-chat': ['OPENAI_API_KEY'],
  'gemini-generate': ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
};
const OPENROUTER_BASE = 'https://openrouter.ai/api';

/**
 * The upstream an `--upstream` spec names. Keys are read from `env` now and live only in this
 * process; the sandbox holds dummies that the proxy strips.
 *
 * - `vendor` (default): each wire format to its maker: Anthropic (`x-api-key` from
 *   `ANTHROPIC_API_KEY`; the client's `anthropic-version` passes through), OpenAI (Bearer
 *   `OPENAI_API_KEY`), Gemini (`x-goog-api-key` from `GEMINI_API_KEY`, else `GOOGLE_API_KEY`).
 * - `openrouter`: `https://openrouter.ai/api`, Bearer `OPENROUTER_API_KEY`; a harness's `/v1/…`
 *   becomes `/api/v1/…` (chat/completions, messages, responses).
 * - `http(s)://host[/prefix]`: any compatible server; the key, if `BAKEOFF_UPSTREAM_API_KEY`
 *   is set, goes in the header style of each request's wire format (none sent when unset, for
 *   local servers).
 *
 * `scripted:<name>` is not handled here: the caller starts the scripted server and wraps its
 * URL with `scriptedUpstream`. Throws `UserError` for an unknown spec or a missing key.
 */
export function upstreamFor(spec: string, env: NodeJS.ProcessEnv, options: UpstreamForOptions = {}): Upstream {
  if (spec === 'vendor' || spec === '') return vendorUpstream(env, options.formats ?? []);
  if (spec === 'openrouter') {
    const key = requireKey(env, ['OPENROUTER_API_KEY'], 'openrouter');
    return { name: 'openrouter', baseUrl: () => OPENROUTER_BASE, authHeaders: () => ({ authorization: `Bearer ${key}` }) };
  }
  if (/^https?:\/\//i.test(spec)) return baseUrlUpstream(spec, nonEmpty(env.BAKEOFF_UPSTREAM_API_KEY));
  if (spec.startsWith('scripted:')) {
    throw new Error(`upstreamFor(${JSON.stringify(spec)}): start the scripted model server and use scriptedUpstream(url)`);
  }
  throw new UserError(
    `--upstream: expected vendor, openrouter, an http(s):// base URL or scripted:<script>, received ${JSON.stringify(spec)}`,
  );
}

/** A local scripted model server (plain http, no auth), e.g. bakeoff's own for `scripted:<name>`. */
export function scriptedUpstream(url: string, name = 'scripted'): Upstream {
  return { name, baseUrl: () => url, authHeaders: () => ({}) };
}

function vendorUpstream(env: NodeJS.ProcessEnv, formats: readonly WireFormat[]): Upstream {
  for (const format of formats) requireKey(env, VENDOR_KEY[format], `vendor (${format})`);
  return {
    name: 'vendor',
    // A call that names no API family (`GET /v1/models` without auth headers) goes to Anthropic.
    baseUrl: (format) => VENDOR_BASE[format ?? 'anthropic-messages'],
    authHeaders: (format) => {
      const f = format ?? 'anthropic-messages';
      return headerFor(f, requireKey(env, VENDOR_KEY[f], `vendor (${f})`));
    },
  };
}

function baseUrlUpstream(spec: string, key: string | undefined): Upstream {
  let url: URL;
  try {
    url = new URL(spec);
  } catch {
    throw new UserError(`--upstream: expected a valid http(s) base URL, received ${JSON.stringify(spec)}`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new UserError(
      `--upstream ${url.origin}: expected a base URL without credentials, query or fragment (put the key in BAKEOFF_UPSTREAM_API_KEY)`,
    );
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  return { name: base, baseUrl: () => base, authHeaders: (format) => (key === undefined ? {} : headerFor(format, key)) };
}

/** The auth header a wire format's API expects. */
function headerFor(format: WireFormat | null, key: string): Record<string, string> {
  if (format === 'anthropic-messages') return { 'x-api-key': key };
  if (format === 'gemini-generate') return { 'x-goog-api-key': key };
  return { authorization: `Bearer ${key}` };
}

function requireKey(env: NodeJS.ProcessEnv, names: readonly string[], upstream: string): string {
  for (const name of names) {
    const value = nonEmpty(env[name]);
    if (value !== undefined) return value;
  }
  throw new UserError(
    `--upstream ${upstream}: expected the API key in ${names.join(' or ')}, which is not set (the proxy injects it on the host; the sandbox never sees it)`,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
