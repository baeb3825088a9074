import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { useProxyBench } from './proxy-bench.test-support.js';
import { openRequest, readBody, sleep, sseEvents } from './proxy-test-kit.test-support.js';
import type { MeterProxy } from './proxy-types.js';
import type { RequestUsage, WireFormat } from '../types.js';
import { upstreamFor } from './upstream.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/wire/', import.meta.url));
const fixture = (format: WireFormat, file: string): string => readFileSync(`${fixtures}${format}/${file}`, 'utf8');

const DUMMY = 'sk-dummy-from-the-sandbox';
const REAL = 'sk-real-key-on-the-host';
const dummyHeaders = {
  'content-type': 'application/json',
  'anthropic-version': '2023-06-01',
  'x-api-key': DUMMY,
  authorization: `Bearer ${DUMMY}`,
  'x-goog-api-key': DUMMY,
  'api-key': DUMMY,
  'accept-encoding': 'gzip, deflate, br, zstd',
  connection: 'keep-alive, x-hop',
  'x-hop': 'per-connection',
};

const bench = useProxyBench('bakeoff-proxy-');
let proxy: MeterProxy;

beforeEach(async () => {
  proxy = await bench.start({
    listen: { socket: path.join(bench.dir, 'model.sock') },
    upstream: upstreamFor(bench.upstream.url, { BAKEOFF_UPSTREAM_API_KEY: REAL }),
    extraHeaders: { 'x-bakeoff-session': 'token-1' },
  });
});

type Case = [WireFormat, string, string, string, Partial<RequestUsage>];
const cases: Case[] = [
  ['anthropic-messages', '/v1/messages?beta=true', 'streamed-tool-turn.sse', 'x-api-key', { inputTokens: 1366, outputTokens: 44 }],
  ['openai-responses', '/v1/responses', 'streamed-tool-turn.sse', 'authorization', { inputTokens: 1111, outputTokens: 44 }],
  ['openai-chat', '/v1/chat/completions', 'streamed-include-usage.sse', 'authorization', { inputTokens: 1111, outputTokens: 44 }],
  ['gemini-generate', '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', 'streamed-thoughts.sse', 'x-goog-api-key', { inputTokens: 1234, outputTokens: 96 }],
];

describe('startMeterProxy relays', () => {
  it.each(cases)('a %s stream chunk by chunk: the client reads the first event before upstream sends the rest', async (format, requestPath, file, authHeader, counts) => {
    const body = fixture(format, file);
    const events = sseEvents(body);
    let clientSawFirst!: () => void;
    const firstSeen = new Promise<'client'>((resolve) => (clientSawFirst = () => resolve('client')));
    let gate: 'client' | 'timeout' | undefined;
    bench.upstream.handle = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(events[0]);
      // A buffering proxy would hold event 1 until the end: then only the timeout opens the gate.
      gate = await Promise.race([firstSeen, sleep(3000).then(() => 'timeout' as const)]);
      for (const event of events.slice(1)) {
        res.write(event);
        await sleep(2);
      }
      res.end();
    };
    const res = await openRequest(proxy.url, { path: requestPath, headers: dummyHeaders, body: JSON.stringify({ model: 'm-requested', stream: true }) });
    let received = '';
    res.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received.startsWith(events[0]!)) clientSawFirst();
    });
    await new Promise((resolve) => res.on('end', resolve));

    expect(gate).toBe('client');
    expect(received).toBe(body);
    const seen = bench.upstream.seen[0]!;
    expect(seen.url).toBe(requestPath);
    expect(seen.headers[authHeader]).toBe(authHeader === 'authorization' ? `Bearer ${REAL}` : REAL);
    expect(JSON.stringify(seen.headers)).not.toContain(DUMMY);
    expect(seen.headers['accept-encoding']).toBeUndefined();
    expect(seen.headers['x-hop']).toBeUndefined();
    expect(seen.headers['x-bakeoff-session']).toBe('token-1');
    expect(seen.headers['anthropic-version']).toBe('2023-06-01');

    const [record] = proxy.requests();
    expect(record).toMatchObject({ seq: 1, format, method: 'POST', path: requestPath, status: 200, streamed: true, failure: null, problems: [] });
    expect(record!.model).toBe(format === 'gemini-generate' ? 'gemini-2.5-pro' : 'm-requested');
    expect(record!.usage).toMatchObject(counts);
    expect(record!.ttfbMs).toBeLessThan(record!.latencyMs);
    expect(proxy.pending()).toEqual([]);
  });

  it('a non-streamed JSON answer and records its usage', async () => {
    const body = fixture('anthropic-messages', 'non-streamed.json');
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    const res = await openRequest(proxy.url, { path: '/v1/messages', headers: dummyHeaders, body: '{"model":"claude-haiku-4-5"}' });
    expect(await readBody(res)).toBe(body);
    expect(proxy.requests()[0]).toMatchObject({ streamed: false, failure: null, model: 'claude-haiku-4-5', usage: { inputTokens: 2310, outputTokens: 77 } });
  });

  it('meters a body the upstream compressed anyway, relaying it untouched', async () => {
    const body = fixture('openai-responses', 'streamed-tool-turn.sse');
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' }).end(gzipSync(body));
    const res = await openRequest(proxy.url, { path: '/v1/responses', headers: dummyHeaders, body: '{}' });
    expect(res.headers['content-encoding']).toBe('gzip');
    await readBody(res);
    expect(proxy.requests()[0]).toMatchObject({ failure: null, usage: { inputTokens: 1111, outputTokens: 44 } });
  });

  it('records the cost OpenRouter charged', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(fixture('openai-chat', 'openrouter-streamed.sse'));
    await readBody(await openRequest(proxy.url, { path: '/v1/chat/completions', headers: dummyHeaders, body: '{}' }));
    expect(proxy.requests()[0]).toMatchObject({ costUsd: 0.002553, failure: null });
  });

  it('any method and path, unmetered when it is not a generation call', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    const res = await openRequest(proxy.url, { method: 'GET', path: '/v1/models?limit=5', headers: dummyHeaders });
    expect(await readBody(res)).toBe('{"data":[]}');
    expect(bench.upstream.seen[0]).toMatchObject({ method: 'GET', url: '/v1/models?limit=5' });
    expect(proxy.requests()[0]).toMatchObject({ format: null, usage: null, failure: null, status: 200, problems: [] });
  });

  it('drops a Gemini key= query parameter and injects the real key as a header', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(fixture('gemini-generate', 'streamed-thoughts.sse'));
    const p = `/v1beta/models/gemini-2.5-pro:streamGenerateContent?key=${DUMMY}&alt=sse`;
    await readBody(await openRequest(proxy.url, { path: p, headers: { 'content-type': 'application/json' }, body: '{}' }));
    expect(bench.upstream.seen[0]!.url).toBe('/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    expect(bench.upstream.seen[0]!.headers['x-goog-api-key']).toBe(REAL);
    expect(proxy.requests()[0]!.path).not.toContain(DUMMY);
  });

  it('meters concurrent streams independently, numbered in arrival order', async () => {
    bench.upstream.handle = async (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const events = sseEvents(fixture('anthropic-messages', 'streamed-tool-turn.sse'));
      for (const event of events) {
        res.write(event.replace('"model":"claude-sonnet-4-5"', `"model":${JSON.stringify(JSON.parse(req.body).model)}`));
        await sleep(1);
      }
      res.end();
    };
    const models = ['a', 'b', 'c', 'd', 'e'];
    const responses = [];
    for (const model of models) responses.push(await openRequest(proxy.url, { path: '/v1/messages', headers: dummyHeaders, body: JSON.stringify({ model }) }));
    await Promise.all(responses.map(readBody));
    const records = proxy.requests();
    expect(records.map((r) => [r.seq, r.model, r.usage?.model, r.failure])).toEqual(models.map((m, i) => [i + 1, m, m, null]));
  });

  it('lists a request in flight with its model, then records it', async () => {
    let release!: () => void;
    bench.upstream.handle = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': waiting\n\n');
      await new Promise<void>((resolve) => (release = resolve));
      res.end(fixture('anthropic-messages', 'streamed-tool-turn.sse'));
    };
    const res = await openRequest(proxy.url, { path: '/v1/messages', headers: dummyHeaders, body: '{"model":"claude-sonnet-4-5"}' });
    await new Promise((resolve) => res.once('data', resolve));
    expect(proxy.pending()).toMatchObject([{ seq: 1, model: 'claude-sonnet-4-5', status: 200, format: 'anthropic-messages' }]);
    release();
    await readBody(res);
    expect(proxy.pending()).toEqual([]);
    expect(proxy.requests()).toHaveLength(1);
  });
});
