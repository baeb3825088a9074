import type { IncomingMessage } from 'node:http';
import { BodyCopy } from './body-copy.js';
import { classifyFailure, type TransportFailure } from './classify-failure.js';
import { explainFailure } from './explain-failure.js';
import { errorMessageOf } from '../usage/error-message-of.js';
import { parseUsage } from '../usage/parse-usage.js';
import type { MeteredRequest, PendingRequest, RecordedResponse } from './proxy-types.js';
import { routeFormatOf } from './route-format-of.js';
import { withoutKeyParam } from './target-url.js';
import { providerToolUseOf } from './tool-policy/provider-tool-use.js';
import type { PolicyItem } from './tool-policy/types.js';
import type { RequestUsage, WireFormat } from '../types.js';
import { wireFormatOf } from './wire-format-of.js';

/** The mutable state of one request while the relay works on it. */
export interface Exchange {
  readonly seq: number;
  readonly startedAt: string;
  /** `performance.now()` at arrival. */
  readonly t0: number;
  readonly method: string;
  /** Path and query without a `key=` parameter. */
  readonly path: string;
  /** The metered wire format (`wireFormatOf`). */
  readonly format: WireFormat | null;
  /** The API family used to pick the upstream base URL and auth header style. */
  readonly route: WireFormat | null;
  model: string | null;
  status: number | null;
  ttfbMs: number | null;
  streamed: boolean;
  contentEncoding: string | undefined;
  contentType: string | undefined;
  readonly requestBody: BodyCopy;
  readonly responseBody: BodyCopy;
  readonly problems: string[];
  transportFailure: TransportFailure | null;
  /** The answer's subscription quota headers, null when none came. */
  quota: Record<string, string> | null;
  /** For a `broken` connection: the transport error (`ECONNRESET …`, `aborted`), or null when the upstream just closed it. */
  breakCause: string | null;
  /** Set once the record is written; later events are ignored. */
  done: boolean;
  /** Set by the relay: ends the exchange as `client-aborted` (used when the proxy closes). */
  abort: ((problem: string) => void) | null;
  /** What the tool policy withheld, refused or allowed in the request. */
  withheld: PolicyItem[];
  /** The tool policy's refusal, when it refused the request (never relayed); else null. */
  refusal: string | null;
}

/** Starts the state of a request that just arrived. */
export function createExchange(seq: number, req: IncomingMessage): Exchange {
  const method = req.method ?? 'GET';
  const path = withoutKeyParam(req.url ?? '/');
  return {
    seq,
    startedAt: new Date().toISOString(),
    t0: performance.now(),
    method,
    path,
    format: wireFormatOf(method, path),
    route: routeFormatOf(method, req.url ?? '/', req.headers),
    model: null,
    status: null,
    ttfbMs: null,
    streamed: false,
    contentEncoding: undefined,
    contentType: undefined,
    requestBody: new BodyCopy(),
    responseBody: new BodyCopy(),
    problems: [],
    transportFailure: null,
    quota: null,
    breakCause: null,
    done: false,
    abort: null,
    withheld: [],
    refusal: null,
  };
}

/** Milliseconds since the request arrived, rounded to 0.01 ms. */
export function elapsedMs(x: Exchange): number {
  return Math.round((performance.now() - x.t0) * 100) / 100;
}

/** A snapshot of an in-flight request. */
export function pendingOf(x: Exchange): PendingRequest {
  const { seq, startedAt, format, method, path, model, status } = x;
  return { seq, startedAt, format, method, path, model, status, elapsedMs: elapsedMs(x), bytesReceived: x.responseBody.bytes };
}

/**
 * The record of a finished request: reads the usage of a 2xx generation response (also when it
 * was cut short: a hang after the last usage event still counts), notes the upstream's error
 * message for an error status, and classifies the failure.
 */
export function recordOf(x: Exchange): MeteredRequest {
  const latencyMs = elapsedMs(x);
  const problems = x.problems;
  let usage: RequestUsage | null = null;
  let providerToolUse: string[] = [];
  let usageLimit = false;
  let ending = { missingFinalEvent: null as string | null, malformedPayloads: 0 };
  const ok = x.status !== null && x.status >= 200 && x.status < 300;
  if (x.refusal !== null) {
    // answered by the proxy itself: nothing came from upstream to read
  } else if (x.responseBody.overflowed) {
    problems.push(`response body over the meter's copy cap (${x.responseBody.bytes} bytes): not metered`);
  } else if (ok && x.format !== null) {
    const text = x.responseBody.text(x.contentEncoding, problems);
    if (text !== null) {
      const parsed = parseUsage(x.format, text, { streamed: x.streamed });
      usage = parsed.usage;
      ending = parsed;
      problems.push(...parsed.problems);
      providerToolUse = providerToolUseOf(x.format, text, x.streamed);
    }
  } else if (x.status !== null && x.status >= 400 && x.transportFailure === null) {
    const text = x.responseBody.text(x.contentEncoding, problems);
    if (text !== null) problems.push(`HTTP ${x.status}: ${errorSummary(text)}`);
    if (text !== null && x.status === 429 && USAGE_LIMIT_BODY.test(text)) usageLimit = true;
  }
  if (x.status === 429 && (x.quota?.['x-codex-rate-limit-reached-type'] !== undefined || x.quota?.['anthropic-ratelimit-unified-status'] === 'rejected')) usageLimit = true;
  const { missingFinalEvent, malformedPayloads } = ending;
  const failure = x.refusal !== null ? 'refused' : usageLimit ? 'usage-limit' : classifyFailure({ transportFailure: x.transportFailure, status: x.status, format: x.format, usage, problems, missingFinalEvent, malformedPayloads });
  const { seq, startedAt, format, method, path, model, status, ttfbMs, streamed } = x;
  const detail =
    failure === null
      ? null
      : failure === 'refused'
        ? x.refusal
        : explainFailure(failure, { format, status, streamed, bytes: x.responseBody.bytes, broken: x.transportFailure === 'broken', breakCause: x.breakCause, missingFinalEvent, problems });
  return { seq, startedAt, format, method, path, model, status, latencyMs, ttfbMs, streamed, usage, problems, failure, detail, costUsd: usage?.costUsd ?? null, quota: x.quota, withheld: x.withheld, providerToolUse };
}

/** A 429 body saying a plan's usage is used up (Codex `usage_limit_reached`, "You've hit your usage limit"). */
const USAGE_LIMIT_BODY = /usage_limit_reached|usage limit|usage_not_included/i;

/** The upstream's error message from an error body (JSON `error.message`), else its start. */
function errorSummary(text: string): string {
  try {
    const data = JSON.parse(text) as unknown;
    const message = errorMessageOf(Array.isArray(data) ? data[0] : data);
    if (message !== null) return message;
  } catch {
    // not JSON: show the text itself
  }
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(empty body)' : flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** The response of a finished generation request as the client got it, for a recorded session; null when there is none to keep. */
export function recordedResponseOf(x: Exchange): RecordedResponse | null {
  if (x.format === null || x.status === null || x.transportFailure !== null || x.refusal !== null || x.responseBody.overflowed) return null;
  const body = x.responseBody.text(x.contentEncoding, []);
  if (body === null) return null;
  return { seq: x.seq, format: x.format, path: x.path, status: x.status, contentType: x.contentType ?? 'application/json', body };
}
