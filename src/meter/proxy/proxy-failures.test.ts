import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMeterProxy } from './proxy.js';
import { useProxyBench } from './proxy-bench.test-support.js';
import { openRequest, readBody, sleep } from './proxy-test-kit.test-support.js';
import type { MeterProxy, MeterProxyOptions } from './proxy-types.js';
import { scriptedUpstream } from './upstream.js';

const bench = useProxyBench('bakeoff-proxy-');

const start = (options: Partial<MeterProxyOptions> = {}): Promise<MeterProxy> => bench.start({ upstream: scriptedUpstream(bench.upstream.url), ...options });

const post = (p: MeterProxy, body = '{"model":"claude-sonnet-4-5","stream":true}') =>
  openRequest(p.url, { path: '/v1/messages', headers: { 'content-type': 'application/json' }, body });

/** Makes the upstream open an SSE stream, write `first` and then stall; tells whether the proxy closed that stream. */
function stallAfter(first: string): { readonly closed: () => boolean } {
  let closed = false;
  bench.upstream.handle = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(first);
    res.on('close', () => (closed = true));
  };
  return { closed: () => closed };
}

describe('startMeterProxy classifies failures', () => {
  it.each([
    [429, 'rate-limited', '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}', 'HTTP 429: rate_limit_error: slow down'],
    [500, 'server-error', '{"error":{"message":"boom"}}', 'HTTP 500: boom'],
    [529, 'server-error', 'Overloaded', 'HTTP 529: Overloaded'],
    [401, 'auth', '{"error":{"type":"authentication_error","message":"invalid x-api-key"}}', 'HTTP 401: authentication_error: invalid x-api-key'],
    [403, 'auth', '', 'HTTP 403: (empty body)'],
    [400, 'client-error', '{"error":{"message":"max_tokens too large"}}', 'HTTP 400: max_tokens too large'],
  ] as const)('HTTP %i as %s, relayed to the client as it came', async (status, failure, body, problem) => {
    bench.upstream.handle = (_req, res) => void res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    const p = await start();
    const res = await post(p);
    expect(res.statusCode).toBe(status);
    expect(await readBody(res)).toBe(body);
    expect(p.requests()[0]).toMatchObject({ status, failure, usage: null, problems: [problem] });
    expect(bench.upstream.seen).toHaveLength(1); // never retried
  });

  it('a refused connection as unreachable, answering the client 502 with a JSON error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const p = await start({ upstream: scriptedUpstream(`http://127.0.0.1:${port}`) });
    const res = await post(p);
    expect(res.statusCode).toBe(502);
    const error = JSON.parse(await readBody(res)) as { error: { message: string } };
    expect(error.error.message).toMatch(/ECONNREFUSED/);
    expect(p.requests()[0]).toMatchObject({ status: 502, failure: 'unreachable', ttfbMs: null });
  });

  it('a stream that stalls as a hang: upstream aborted, the client connection cut', async () => {
    const upstream = stallAfter('event: ping\ndata: {"type":"ping"}\n\n');
    const p = await start({ idleTimeoutMs: 150 });
    const res = await post(p);
    await expect(readBody(res)).rejects.toThrow(/aborted|cut/);
    expect(p.requests()[0]).toMatchObject({ status: 200, failure: 'hang' });
    expect(p.requests()[0]!.problems[0]).toBe('no bytes from upstream for 150 ms: aborted');
    await sleep(20);
    expect(upstream.closed()).toBe(true);
  });

  it('an upstream that never answers as a hang, with a 504 to the client', async () => {
    bench.upstream.handle = () => undefined;
    const p = await start({ idleTimeoutMs: 100 });
    const res = await post(p);
    expect(res.statusCode).toBe(504);
    expect(await readBody(res)).toMatch(/no bytes from upstream for 100 ms/);
    expect(p.requests()[0]).toMatchObject({ status: 504, failure: 'hang', ttfbMs: null });
  });

  it('keeps a slow but steady stream alive past the idle timeout', async () => {
    bench.upstream.handle = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 6; i++) {
        res.write(': keep-alive\n\n');
        await sleep(40);
      }
      res.end('event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":5,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":2}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n');
    };
    const p = await start({ idleTimeoutMs: 150 });
    await readBody(await post(p));
    expect(p.requests()[0]).toMatchObject({ failure: null, usage: { inputTokens: 5, outputTokens: 2 } });
  });

  it('a 200 without readable usage as malformed', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"content":[]}');
    const p = await start();
    await readBody(await post(p, '{"model":"m"}'));
    expect(p.requests()[0]).toMatchObject({ status: 200, failure: 'malformed', usage: null });
    expect(p.requests()[0]!.problems).toContain('no usage.input_tokens in the body');
  });

  it('an error event inside a 200 stream as a server error', async () => {
    bench.upstream.handle = (_req, res) =>
      void res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n');
    const p = await start();
    await readBody(await post(p));
    expect(p.requests()[0]).toMatchObject({ status: 200, failure: 'server-error' });
  });

  it('a client that hangs up mid-stream as client-aborted, and stops the upstream request', async () => {
    const upstream = stallAfter(': started\n\n');
    const p = await start();
    const res = await post(p);
    await new Promise((resolve) => res.once('data', resolve));
    res.destroy();
    for (let i = 0; i < 100 && p.requests().length === 0; i++) await sleep(5);
    expect(p.requests()[0]).toMatchObject({ failure: 'client-aborted', status: 200 });
    await sleep(20);
    expect(upstream.closed()).toBe(true);
  });

  it('an upstream that cuts the connection mid-stream as truncated, cutting the client too', async () => {
    bench.upstream.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ping\ndata: {"type":"ping"}\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const p = await start();
    await expect(readBody(await post(p))).rejects.toThrow(/aborted|cut/);
    expect(p.requests()[0]).toMatchObject({ status: 200, failure: 'truncated' });
    expect(p.requests()[0]!.problems[0]).toMatch(/^upstream connection broke after 35 body bytes/);
    expect(p.requests()[0]!.detail).toMatch(/^the connection broke after 35 bytes of the anthropic-messages stream \(HTTP 200\), before message_stop: /);
  });

  it('a stream that ends cleanly without its final event as truncated, relayed as it came', async () => {
    const start_ = 'event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":5,"output_tokens":1}}}\n\n';
    const delta = 'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":2}}\n\n';
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(start_ + delta);
    const p = await start();
    expect(await readBody(await post(p))).toBe(start_ + delta);
    // the usage is counted (the tokens were spent), the answer still did not arrive whole
    expect(p.requests()[0]).toMatchObject({ status: 200, failure: 'truncated', usage: { inputTokens: 5, outputTokens: 2 } });
    expect(p.requests()[0]!.detail).toBe(`the anthropic-messages stream ended after ${Buffer.byteLength(start_ + delta)} bytes without message_stop`);
  });

  it('names every failure in its detail, and leaves a clean answer without one', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}');
    const p = await start();
    await readBody(await post(p));
    bench.upstream.handle = (_req, res) =>
      void res.writeHead(200, { 'content-type': 'text/event-stream' }).end('event: message_start\ndata: {"type":"message_start","message":{"model":"m","usage":{"input_tokens":5,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":2}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n');
    await readBody(await post(p));
    expect(p.requests().map((r) => [r.failure, r.detail])).toEqual([
      ['rate-limited', 'HTTP 429: slow down'],
      [null, null],
    ]);
  });

  it('a missing key as auth, answering 502 and naming the variable, without calling upstream', async () => {
    const p = await start({
      upstream: { name: 'vendor', baseUrl: () => bench.upstream.url, authHeaders: () => { throw new Error('expected the API key in ANTHROPIC_API_KEY'); } },
    });
    const res = await post(p);
    expect(res.statusCode).toBe(502);
    expect(await readBody(res)).toMatch(/ANTHROPIC_API_KEY/);
    expect(p.requests()[0]).toMatchObject({ failure: 'auth' });
    expect(bench.upstream.seen).toHaveLength(0);
  });

  it('records requests still in flight as client-aborted when it closes', async () => {
    bench.upstream.handle = () => undefined;
    const p = await start();
    const res = post(p).catch((error: Error) => error);
    for (let i = 0; i < 100 && bench.upstream.seen.length === 0; i++) await sleep(5);
    await p.close();
    expect(await res).toBeInstanceOf(Error);
    expect(p.requests()).toMatchObject([{ failure: 'client-aborted', problems: ['the proxy closed while the request was in flight'] }]);
  });

  it('replaces a stale socket file and listens on TCP too', async () => {
    const socket = path.join(bench.dir, 'stale.sock');
    const first = await startMeterProxy({ listen: { socket }, upstream: scriptedUpstream(bench.upstream.url) });
    // A crashed session leaves its socket file behind; simulate by starting again without closing.
    const second = await startMeterProxy({ listen: { socket }, upstream: scriptedUpstream(bench.upstream.url) });
    const tcp = await start({ listen: { port: 0 } });
    expect(tcp.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    bench.upstream.handle = (_req, res) => void res.end('{}');
    expect((await post(second)).statusCode).toBe(200);
    expect((await post(tcp)).statusCode).toBe(200);
    await second.close();
    await first.close();
  });
});
