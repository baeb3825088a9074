import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMeterProxy } from './proxy.js';
import { type FakeUpstream, openRequest, readBody, startFakeUpstream } from './proxy-test-kit.js';
import type { MeterProxy, Upstream } from './proxy-types.js';

let dir: string;
let upstream: FakeUpstream;
let proxy: MeterProxy | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-proxy-sub-'));
  upstream = await startFakeUpstream();
});

afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await upstream.close();
  await rm(dir, { recursive: true, force: true });
});

/** An upstream like a subscription's: credentials for one endpoint only, made ready (refreshed) before each request. */
function planUpstream(prepared: string[]): Upstream {
  return {
    name: 'plan',
    baseUrl: () => upstream.url,
    prepare: async (r) => void prepared.push(`${r.method} ${r.path}`),
    authHeaders: (_format, r): Record<string, string> => (r?.path === '/v1/messages' ? { authorization: 'Bearer real' } : {}),
  };
}

describe('the metering proxy on a subscription', () => {
  it('prepares every request, adds the credential to the plan\'s endpoint only, drops the client\'s (dummy) credentials, and records quota headers', async () => {
    const prepared: string[] = [];
    upstream.handle = (_req, res) => void res.writeHead(404, { 'anthropic-ratelimit-unified-5h-utilization': '0.4', 'x-other': '1' }).end('{}');
    proxy = await startMeterProxy({ listen: { socket: path.join(dir, 'p.sock') }, upstream: planUpstream(prepared) });
    const dummy = { authorization: 'Bearer dummy', 'chatgpt-account-id': 'dummy-account', 'content-type': 'application/json' };
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', headers: dummy, body: '{"model":"m"}' }));
    await readBody(await openRequest(proxy.url, { method: 'GET', path: '/api/oauth/profile', headers: dummy }));
    expect(prepared).toEqual(['POST /v1/messages', 'GET /api/oauth/profile']);
    expect(upstream.seen[0]!.headers.authorization).toBe('Bearer real');
    expect(upstream.seen[1]!.headers.authorization).toBeUndefined();
    for (const s of upstream.seen) expect(s.headers['chatgpt-account-id']).toBeUndefined();
    expect(proxy.requests()[0]!.quota).toEqual({ 'anthropic-ratelimit-unified-5h-utilization': '0.4' });
  });

  it('a failed preparation (a refresh that failed) fails the request as auth, saying why', async () => {
    proxy = await startMeterProxy({
      listen: { socket: path.join(dir, 'p.sock') },
      upstream: { ...planUpstream([]), prepare: async () => Promise.reject(new Error('refresh token reused')) },
    });
    const res = await openRequest(proxy.url, { path: '/v1/messages', body: '{"model":"m"}' });
    expect(res.statusCode).toBe(502);
    await readBody(res);
    expect(proxy.requests()[0]).toMatchObject({ failure: 'auth', detail: expect.stringContaining('refresh token reused') });
    expect(upstream.seen).toEqual([]);
  });

  it.each([
    ['Codex: usage_limit_reached', { 'x-codex-primary-used-percent': '100' }, '{"error":{"type":"usage_limit_reached","message":"You\'ve hit your usage limit."}}'],
    ['Codex: the limit-reached header', { 'x-codex-rate-limit-reached-type': 'primary' }, '{"error":{"message":"slow down"}}'],
    ['Claude: unified status rejected', { 'anthropic-ratelimit-unified-status': 'rejected' }, '{"type":"error","error":{"type":"rate_limit_error","message":"limit"}}'],
  ])('a plan-limit 429 (%s) is usage-limit, not rate-limited', async (_, headers, body) => {
    upstream.handle = (_req, res) => void res.writeHead(429, { 'content-type': 'application/json', ...headers }).end(body);
    proxy = await startMeterProxy({ listen: { socket: path.join(dir, 'p.sock') }, upstream: planUpstream([]) });
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', body: '{"model":"m"}' }));
    expect(proxy.requests()[0]).toMatchObject({ status: 429, failure: 'usage-limit', quota: headers, detail: expect.stringContaining("usage limit was reached") });
  });

  it('a plain 429 stays rate-limited', async () => {
    upstream.handle = (_req, res) => void res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}');
    proxy = await startMeterProxy({ listen: { socket: path.join(dir, 'p.sock') }, upstream: planUpstream([]) });
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', body: '{"model":"m"}' }));
    expect(proxy.requests()[0]).toMatchObject({ failure: 'rate-limited', quota: null });
  });
});
