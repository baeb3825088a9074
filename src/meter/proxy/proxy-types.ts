import type { RequestUsage, WireFormat } from '../types.js';
import type { PolicyItem } from './tool-policy/types.js';

/**
 * Why a metered request did not give a clean, counted answer. `null` on a record means it did.
 *
 * - `rate-limited`: HTTP 429.
 * - `usage-limit`: a subscription's plan or quota is used up (HTTP 429 saying so: Codex
 *   `usage_limit_reached` / `x-codex-rate-limit-reached-type`, Claude
 *   `anthropic-ratelimit-unified-status: rejected`).
 * - `server-error`: HTTP 5xx, or an error event inside a 2xx stream (e.g. `overloaded_error`).
 * - `auth`: HTTP 401/403, or the proxy has no key to inject.
 * - `client-error`: any other HTTP 4xx.
 * - `unreachable`: connect error, DNS failure, or the connection dropped before any response
 *   headers (the client got a 502).
 * - `hang`: the upstream sent no bytes for `idleTimeoutMs`; the proxy aborted it.
 * - `truncated`: a 2xx answer that did not arrive whole: a stream that ended without its wire
 *   format's final event (`message_stop`, `response.completed`, `[DONE]`/`finish_reason`,
 *   `finishReason`), or a connection that broke after the response headers.
 * - `malformed`: a 2xx generation response that could not be read (a payload that is not JSON,
 *   or no usage in it).
 * - `client-aborted`: the agent hung up (or the proxy closed) before the response ended.
 * - `refused`: the proxy's tool policy answered 4xx and never relayed the request (an endpoint
 *   other than generation, a forced provider tool, a URL input, an unknown tool type; decision 013).
 */
export type FailureClass =
  | 'rate-limited'
  | 'usage-limit'
  | 'server-error'
  | 'auth'
  | 'client-error'
  | 'unreachable'
  | 'hang'
  | 'truncated'
  | 'malformed'
  | 'client-aborted'
  | 'refused';

/** Where the proxy sends requests, and the credentials it adds. Built by `upstreamFor`. */
export interface Upstream {
  /** A name for records, e.g. `vendor`, `openrouter`, `scripted:demo`. */
  readonly name: string;
  /** Base URL for a wire format (null: not a generation call), e.g. `https://api.anthropic.com`. */
  baseUrl(format: WireFormat | null): string;
  /**
   * Auth headers to inject (the real key) into a request (its method and path). May throw a
   * `UserError` when the key is missing.
   */
  authHeaders(format: WireFormat | null, request?: UpstreamRequest): Record<string, string>;
  /** Awaited before each request is relayed (a subscription refreshes its login here); a throw fails the request as `auth`. */
  prepare?(request: UpstreamRequest): Promise<void>;
}

/** A request as an upstream sees it before relaying. */
export interface UpstreamRequest {
  readonly method: string;
  /** Path and query as the client sent them. */
  readonly path: string;
}

/** Options of `startMeterProxy`. */
export interface MeterProxyOptions {
  /** A unix socket path (a stale socket file there is replaced), or a TCP host/port (default 127.0.0.1:0). */
  readonly listen: { readonly socket: string } | { readonly host?: string; readonly port?: number };
  readonly upstream: Upstream;
  /** Abort an upstream request that sends no bytes for this long (a hang); default 120000. */
  readonly idleTimeoutMs?: number;
  /** Headers added to every upstream request (e.g. `x-bakeoff-session` for the scripted server). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** Called with each finished generation request's response, as the client got it (to record a session). */
  readonly onResponse?: (response: RecordedResponse) => void;
  /** Called as each request arrives (before it is relayed), with what is known of it so far. */
  readonly onRequestStart?: (request: PendingRequest) => void;
  /** Called with each request's record as it ends (a session watching for failures). */
  readonly onRequestEnd?: (request: MeteredRequest) => void;
  /**
   * `network: model-api+web`: provider-run tools and URL inputs pass (each recorded as
   * `allowed`). Default false, the closed web: they are withheld or the request is refused.
   * The endpoint table (generation, token counts, model listings only) holds either way.
   */
  readonly openWeb?: boolean;
  /**
   * Relay every body unread, as the proxy did before the tool policy: for `bench/proxy-latency.mjs`
   * to measure what the policy adds, and nothing else. bakeoff never sets it.
   */
  readonly bypassToolPolicy?: boolean;
}

/** One model answer of a recorded session: enough for the scripted server to give it again. */
export interface RecordedResponse {
  readonly seq: number;
  readonly format: WireFormat;
  readonly path: string;
  readonly status: number;
  readonly contentType: string;
  /** The body, decoded (SSE text or JSON). */
  readonly body: string;
}

/** One request that went through the proxy, as recorded when it ended. */
export interface MeteredRequest {
  /** 1-based order of arrival at the proxy. */
  readonly seq: number;
  /** When the request arrived (ISO 8601). */
  readonly startedAt: string;
  /** Wire format by method and path; null for calls that are not generations (`GET /v1/models`). */
  readonly format: WireFormat | null;
  readonly method: string;
  /** Path and query as the client sent them (a Gemini `key=` query parameter removed). */
  readonly path: string;
  /** The model the client asked for: the request body's `model`, or the Gemini URL path's. */
  readonly model: string | null;
  /** The upstream's HTTP status, or the proxy's own (502 unreachable, 504 hang before headers); null if none was sent. */
  readonly status: number | null;
  /** From arrival to the end of the response (or the failure), in milliseconds. */
  readonly latencyMs: number;
  /** From arrival to the first response body byte from upstream; null when none came. */
  readonly ttfbMs: number | null;
  /** True when the response was a stream (SSE, or Gemini `streamGenerateContent`). */
  readonly streamed: boolean;
  /** Token usage read from the response body; null when not a generation or unreadable. */
  readonly usage: RequestUsage | null;
  /** What looked wrong: parse problems, the upstream's error message, the transport error. */
  readonly problems: string[];
  readonly failure: FailureClass | null;
  /**
   * When `failure` is set: what happened, in the proxy's words, e.g. `the anthropic-messages
   * stream ended cleanly after 1843 bytes without message_stop`; null for a clean answer.
   */
  readonly detail: string | null;
  /** What the provider charged for it, when it says (OpenRouter `usage.cost`); else null. */
  readonly costUsd: number | null;
  /** A subscription's quota headers on the answer (`x-codex-*`, `anthropic-ratelimit-unified-*`); null when none came. */
  readonly quota: Readonly<Record<string, string>> | null;
  /** What the tool policy withheld, refused or (open web) let through in this request; empty when nothing. */
  readonly withheld: readonly PolicyItem[];
  /** Signs in the answer that the provider ran a tool (`usage.server_tool_use.web_search_requests 1`); empty when none. */
  readonly providerToolUse: readonly string[];
}

/**
 * A request still in flight, for watchdogs and progress: the record's fields known so far
 * (`model` once the request body has arrived, `status` once the upstream's headers have).
 */
export interface PendingRequest extends Pick<MeteredRequest, 'seq' | 'startedAt' | 'format' | 'method' | 'path' | 'model' | 'status'> {
  /** Milliseconds since the request arrived. */
  readonly elapsedMs: number;
  /** Response body bytes received from upstream so far. */
  readonly bytesReceived: number;
}

/** A running metering proxy. */
export interface MeterProxy {
  /** `http://127.0.0.1:<port>` for TCP; `unix:<path>` for a unix socket (the sandbox relay decides its own URL). */
  readonly url: string;
  /** Every finished request, in arrival order. */
  requests(): MeteredRequest[];
  /** Requests still in flight. */
  pending(): PendingRequest[];
  /** Stops listening, cuts open connections (in-flight requests are recorded as `client-aborted`). */
  close(): Promise<void>;
}
