import { lstat, unlink } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { InfraError } from '../../errors.js';
import { type Exchange, createExchange, pendingOf, recordOf, recordedResponseOf } from './exchange.js';
import type { MeteredRequest, MeterProxy, MeterProxyOptions } from './proxy-types.js';
import { type RelayContext, relayRequest } from './relay-request.js';

/** Default for `MeterProxyOptions.idleTimeoutMs`: two minutes without a byte is a hang. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/**
 * Starts the metering proxy of one agent session: the only network the sandbox has. It relays
 * every request to `options.upstream` (any method and path, query kept), swaps the client's
 * dummy credentials for the upstream's real ones, streams each response back chunk by chunk
 * and records every request with its usage, timings and failure class. It never retries.
 */
export async function startMeterProxy(options: MeterProxyOptions): Promise<MeterProxy> {
  const records: MeteredRequest[] = [];
  const inFlight = new Map<number, Exchange>();
  let seq = 0;
  const ctx: RelayContext = {
    upstream: options.upstream,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    extraHeaders: options.extraHeaders ?? {},
    openWeb: options.openWeb ?? false,
    bypassToolPolicy: options.bypassToolPolicy ?? false,
    agents: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
    finish(x) {
      inFlight.delete(x.seq);
      try {
        records.push(recordOf(x));
      } catch (error) {
        // Runs inside stream event handlers: a metering bug must cost one record's usage, never the process.
        x.problems.push(`internal error while metering: ${String(error)}`);
        const { seq: n, startedAt, format, method, path, model, status, elapsedMs: latencyMs } = pendingOf(x);
        const failure = x.transportFailure === null ? 'malformed' : x.transportFailure === 'broken' ? 'truncated' : x.transportFailure;
        const detail = x.problems.join('; ').slice(0, 400);
        records.push({ seq: n, startedAt, format, method, path, model, status, latencyMs, ttfbMs: x.ttfbMs, streamed: x.streamed, usage: null, problems: x.problems, failure, detail, costUsd: null, quota: x.quota, withheld: x.withheld, providerToolUse: [] });
      }
      notify(options.onRequestEnd, records.at(-1)!);
      if (options.onResponse) {
        try {
          const recorded = recordedResponseOf(x);
          if (recorded) options.onResponse(recorded);
        } catch {
          // recording is a convenience: it must never cost the session
        }
      }
    },
  };
  // A long keep-alive: an agent that pauses (running tests) must not reuse a socket the proxy just closed.
  const server = http.createServer({ noDelay: true, keepAliveTimeout: 600_000 }, (req, res) => {
    const x = createExchange(++seq, req);
    inFlight.set(x.seq, x);
    notify(options.onRequestStart, pendingOf(x));
    try {
      relayRequest(ctx, x, req, res);
    } catch (error) {
      // Safety net: a bug here must cost one request, never the session.
      res.destroy();
      if (!x.done) {
        x.done = true;
        x.transportFailure = 'unreachable';
        x.problems.push(`internal error in the proxy: ${String(error)}`);
        ctx.finish(x);
      }
    }
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await listen(server, options.listen);
  return {
    url: urlOf(server, options.listen),
    requests: () => [...records].sort((a, b) => a.seq - b.seq),
    pending: () => [...inFlight.values()].map(pendingOf),
    close: () => closeProxy(server, ctx, [...inFlight.values()]),
  };
}

/** Calls a watcher's hook; its error must never cost the request or the process. */
function notify<T>(hook: ((value: T) => void) | undefined, value: T): void {
  if (!hook) return;
  try {
    hook(value);
  } catch {
    // a watcher's bug is its own
  }
}

async function listen(server: http.Server, where: MeterProxyOptions['listen']): Promise<void> {
  if ('socket' in where) await removeStaleSocket(where.socket);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new InfraError(`metering proxy cannot listen on ${describe(where)}: ${error.message}`, { cause: error })));
    if ('socket' in where) server.listen(where.socket, resolve);
    else server.listen(where.port ?? 0, where.host ?? '127.0.0.1', resolve);
  });
}

/** A socket file left by a crashed session would make `listen` fail with EADDRINUSE. */
async function removeStaleSocket(path: string): Promise<void> {
  const stat = await lstat(path).catch(() => null);
  if (stat?.isSocket()) await unlink(path);
}

function urlOf(server: http.Server, where: MeterProxyOptions['listen']): string {
  if ('socket' in where) return `unix:${where.socket}`;
  const { address, port } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

function describe(where: MeterProxyOptions['listen']): string {
  return 'socket' in where ? where.socket : `${where.host ?? '127.0.0.1'}:${where.port ?? 0}`;
}

async function closeProxy(server: http.Server, ctx: RelayContext, open: Exchange[]): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const x of open) x.abort?.('the proxy closed while the request was in flight');
  server.closeAllConnections();
  ctx.agents.http.destroy();
  ctx.agents.https.destroy();
  await closed;
}
