import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Exchange, elapsedMs } from './exchange.js';
import { IdleWatch } from './idle-watch.js';
import { clientResponseHeaders, upstreamRequestHeaders } from './forward-headers.js';
import type { Upstream } from './proxy-types.js';
import { requestModelOf } from './request-model-of.js';
import { targetUrl } from './target-url.js';
import { applyToolPolicy, type PolicyVerdict } from './tool-policy/apply-tool-policy.js';
import { DEFAULT_COPY_CAP } from './body-copy.js';

/** What `relayRequest` needs from the proxy that owns it. */
export interface RelayContext {
  readonly upstream: Upstream;
  readonly idleTimeoutMs: number;
  readonly extraHeaders: Readonly<Record<string, string>>;
  /** `network: model-api+web`: the tool policy lets provider tools through (recording them). */
  readonly openWeb: boolean;
  /** `MeterProxyOptions.bypassToolPolicy`: benchmarks only. */
  readonly bypassToolPolicy: boolean;
  /** Keep-alive agents, one per scheme. */
  readonly agents: { readonly http: http.Agent; readonly https: https.Agent };
  /** Called exactly once per exchange, when it ended (the relay sets `done` first). */
  finish(x: Exchange): void;
}

/**
 * Relays one request to the upstream and its response back, chunk by chunk, without retries.
 * Never throws: every failure ends in `ctx.finish(x)` with `x.transportFailure` or the status
 * telling what happened, and the client gets the upstream's answer, a 502/504 JSON error, or
 * (once a response had started) a destroyed socket, never a clean end to a cut stream.
 */
export function relayRequest(ctx: RelayContext, x: Exchange, req: IncomingMessage, res: ServerResponse): void {
  const finish = (): void => {
    if (x.done) return;
    x.done = true;
    idle.stop();
    ctx.finish(x);
  };
  /** Ends the exchange: answers `replyStatus` with a JSON error if nothing was sent yet, else cuts the connection. */
  const fail = (kind: NonNullable<Exchange['transportFailure']>, problem: string, replyStatus: 502 | 504 | null): void => {
    if (x.done) return;
    x.transportFailure = kind;
    x.problems.push(problem);
    upstreamReq?.destroy();
    if (res.headersSent || replyStatus === null) res.destroy();
    else replyError(res, x, replyStatus, problem);
    finish();
  };
  // Armed now; touched by every byte in either direction, held while the client is slow.
  const idle = new IdleWatch(ctx.idleTimeoutMs, () => {
    fail('hang', `no bytes from upstream for ${ctx.idleTimeoutMs} ms: aborted`, 504);
  });
  x.abort = (problem) => fail('client-aborted', problem, null);

  let upstreamReq: http.ClientRequest | undefined;
  const prepare = ctx.upstream.prepare;
  if (prepare === undefined) return start();
  prepare({ method: x.method, path: x.path }).then(start, (error: unknown) => fail('auth', `no credentials for upstream ${ctx.upstream.name}: ${messageOf(error)}`, 502));

  function start(): void {
  if (x.done) return;
  res.on('close', () => {
    if (!res.writableFinished) fail('client-aborted', `client closed the connection after ${elapsedMs(x)} ms`, null);
  });
  req.on('error', () => {}); // surfaces as res 'close'
  req.on('data', (chunk: Buffer) => {
    x.requestBody.add(chunk);
    idle.touch();
  });
  if (ctx.bypassToolPolicy) {
    // bench/proxy-latency.mjs only: the relay as it was before the tool policy, the body streamed upstream unread
    req.on('end', () => void (x.model = requestModelOf(x.path, x.requestBody.text(undefined, x.problems) ?? '')));
    const route = resolveRoute(ctx.upstream, x);
    if ('failure' in route) return fail(route.failure, route.problem, 502);
    return void req.pipe(openUpstream(route.target, upstreamRequestHeaders(req.headers, { ...ctx.extraHeaders, ...route.auth })));
  }
  // The whole body first: the tool policy reads it before anything goes upstream (decision 013).
  req.on('end', () => {
    if (x.done) return;
    if (!x.requestBody.overflowed) x.model = requestModelOf(x.path, x.requestBody.text(undefined, x.problems) ?? '');
    const verdict: PolicyVerdict = x.requestBody.overflowed
      ? { kind: 'refuse', status: 413, message: `bakeoff closed web: the request body is larger than the ${DEFAULT_COPY_CAP} bytes the tool policy reads`, body: '', items: [] }
      : applyToolPolicy({ method: x.method, path: x.path, route: x.route, body: x.requestBody.raw(), contentEncoding: header(req.headers['content-encoding']), openWeb: ctx.openWeb });
    x.withheld = verdict.items;
    if (verdict.kind === 'refuse') return refuse(verdict);
    const route = resolveRoute(ctx.upstream, x);
    if ('failure' in route) return fail(route.failure, route.problem, 502);
    const body = verdict.body ?? x.requestBody.raw();
    const headers = upstreamRequestHeaders(req.headers, { ...ctx.extraHeaders, ...route.auth });
    if (verdict.body !== null) delete headers['content-encoding'];
    if (body.length > 0 || headers['content-length'] !== undefined) headers['content-length'] = String(body.length);
    openUpstream(route.target, headers).end(body);
  });
  }

  /** The upstream request, its failures and its response wired to the exchange. */
  function openUpstream(target: URL, headers: http.OutgoingHttpHeaders): http.ClientRequest {
    const secure = target.protocol === 'https:';
    const upstream = (secure ? https : http).request(target, { method: x.method, headers, agent: secure ? ctx.agents.https : ctx.agents.http });
    upstreamReq = upstream;
    upstream.on('socket', (socket) => socket.setNoDelay(true));
    upstream.on('error', (error) => {
      if (x.status === null) fail('unreachable', `upstream ${target.origin} unreachable (no response): ${messageOf(error)}`, 502);
      else broke(x, fail, messageOf(error));
    });
    upstream.on('response', (upstreamRes) => relayResponse(upstreamRes, res, x, idle, fail, finish));
    return upstream;
  }

  /** Answers a request the tool policy refused, in its wire format's error shape; nothing goes upstream. */
  function refuse(verdict: Extract<PolicyVerdict, { kind: 'refuse' }>): void {
    x.refusal = verdict.message;
    x.status = verdict.status;
    x.problems.push(verdict.message);
    const body = verdict.body || JSON.stringify({ type: 'error', error: { type: 'request_too_large', message: verdict.message } });
    if (!res.destroyed) {
      res.writeHead(verdict.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }
    finish();
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Streams the upstream's response to the client, flushing every chunk as it arrives. */
function relayResponse(
  upstreamRes: IncomingMessage,
  res: ServerResponse,
  x: Exchange,
  idle: IdleWatch,
  fail: (kind: 'broken', problem: string, replyStatus: 502) => void,
  finish: () => void,
): void {
  if (x.done) return void upstreamRes.resume();
  idle.touch();
  x.status = upstreamRes.statusCode ?? null;
  x.contentEncoding = upstreamRes.headers['content-encoding'];
  x.contentType = upstreamRes.headers['content-type'];
  x.quota = quotaHeaders(upstreamRes.headers);
  x.streamed = /text\/event-stream/i.test(upstreamRes.headers['content-type'] ?? '') || /:streamGenerateContent/i.test(x.path);
  res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.statusMessage, clientResponseHeaders(upstreamRes.headers));
  res.flushHeaders();
  upstreamRes.on('data', (chunk: Buffer) => {
    x.ttfbMs ??= elapsedMs(x);
    x.responseBody.add(chunk);
    idle.touch();
    if (!res.write(chunk)) {
      // The client is slow, not the upstream: stop reading and hold the hang watch until it drains.
      upstreamRes.pause();
      idle.hold();
      res.once('drain', () => {
        idle.release();
        upstreamRes.resume();
      });
    }
  });
  upstreamRes.on('end', () => {
    x.ttfbMs ??= elapsedMs(x);
    res.end();
    finish();
  });
  let cause: string | null = null;
  upstreamRes.on('error', (error) => void (cause ??= messageOf(error))); // reported by the 'close' check below
  upstreamRes.on('close', () => {
    if (!upstreamRes.complete) broke(x, fail, cause);
  });
}

/** The upstream connection broke after the response headers: the client's connection is cut too (never a clean end to a cut answer). */
function broke(x: Exchange, fail: (kind: 'broken', problem: string, replyStatus: 502) => void, cause: string | null): void {
  if (x.done) return;
  x.breakCause = cause;
  fail('broken', `upstream connection broke after ${x.responseBody.bytes} body bytes${cause === null ? '' : `: ${cause}`}`, 502);
}

/** The upstream URL and auth headers of a request, or why there are none. */
function resolveRoute(
  upstream: Upstream,
  x: Exchange,
): { target: URL; auth: Record<string, string> } | { failure: 'unreachable' | 'auth'; problem: string } {
  let target: URL;
  try {
    target = targetUrl(upstream.baseUrl(x.route), x.path);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`unsupported scheme ${target.protocol}`);
  } catch (error) {
    return { failure: 'unreachable', problem: `cannot build the upstream URL: ${messageOf(error)}` };
  }
  try {
    return { target, auth: upstream.authHeaders(x.route, { method: x.method, path: x.path }) };
  } catch (error) {
    return { failure: 'auth', problem: `no credentials for upstream ${upstream.name}: ${messageOf(error)}` };
  }
}

/** Subscription quota headers: Codex's `x-codex-*` (used percent, window, resets, credits, limit reached), Claude's `anthropic-ratelimit-unified-*`. */
const QUOTA_HEADER = /^(x-codex-|anthropic-ratelimit-unified-)/;

function quotaHeaders(headers: http.IncomingHttpHeaders): Record<string, string> | null {
  const found = Object.entries(headers).filter(([name, value]) => QUOTA_HEADER.test(name) && value !== undefined);
  return found.length === 0 ? null : Object.fromEntries(found.map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]));
}

/** Answers the client with a JSON error in the shape the model APIs use (`error.message`). */
function replyError(res: ServerResponse, x: Exchange, status: number, message: string): void {
  if (res.destroyed) return;
  x.status = status;
  const body = JSON.stringify({ type: 'error', error: { type: 'bakeoff_proxy_error', message } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code !== undefined && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
  }
  return String(error);
}
