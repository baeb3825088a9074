import { describe, expect, it } from 'vitest';
import { useProxyBench } from './proxy-bench.test-support.js';
import { openRequest, readBody } from './proxy-test-kit.test-support.js';
import type { Upstream } from './proxy-types.js';

const bench = useProxyBench('bakeoff-proxy-sub-');

/** An upstream like a subscription's: credentials for one endpoint only, made ready (refreshed) before each request. */
function planUpstream(prepared: string[]): Upstream {
  return {
    name: 'plan',
    baseUrl: () => bench.upstream.url,
    prepare: async (r) => void prepared.push(`${r.method} ${r.path}`),
    authHeaders: (_format, r): Record<string, string> => (r?.path === '/v1/messages' ? { authorization: 'Bearer real' } : {}),
  };
}

describe('the metering proxy on a subscription', () => {
  it('prepares every request, adds the credential to the plan\'s endpoint only, drops the client\'s (dummy) credentials, and records quota headers', async () => {
    const prepared: string[] = [];
    bench.upstream.handle = (_req, res) => void res.writeHead(404, { 'anthropic-ratelimit-unified-5h-utilization': '0.4', 'x-other': '1' }).end('{}');
    const proxy = await bench.start({ upstream: planUpstream(prepared) });
    const dummy = { authorization: 'Bearer dummy', 'chatgpt-account-id': 'dummy-account', 'content-type': 'application/json' };
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', headers: dummy, body: '{"model":"m"}' }));
    await readBody(await openRequest(proxy.url, { method: 'GET', path: '/v1/models', headers: dummy }));
    // not an endpoint the proxy relays at all (decision 013): refused before it could reach the plan
    const profile = await openRequest(proxy.url, { method: 'GET', path: '/api/oauth/profile', headers: dummy });
    expect(profile.statusCode).toBe(404);
    await readBody(profile);
    expect(prepared).toEqual(['POST /v1/messages', 'GET /v1/models', 'GET /api/oauth/profile']);
    expect(bench.upstream.seen.map((s) => s.url)).toEqual(['/v1/messages', '/v1/models']);
    expect(bench.upstream.seen[0]!.headers.authorization).toBe('Bearer real');
    expect(bench.upstream.seen[1]!.headers.authorization).toBeUndefined();
    for (const s of bench.upstream.seen) expect(s.headers['chatgpt-account-id']).toBeUndefined();
    expect(proxy.requests()[0]!.quota).toEqual({ 'anthropic-ratelimit-unified-5h-utilization': '0.4' });
  });

  it('a failed preparation (a refresh that failed) fails the request as auth, saying why', async () => {
    const proxy = await bench.start({
      upstream: { ...planUpstream([]), prepare: async () => Promise.reject(new Error('refresh token reused')) },
    });
    const res = await openRequest(proxy.url, { path: '/v1/messages', body: '{"model":"m"}' });
    expect(res.statusCode).toBe(502);
    await readBody(res);
    expect(proxy.requests()[0]).toMatchObject({ failure: 'auth', detail: expect.stringContaining('refresh token reused') });
    expect(bench.upstream.seen).toEqual([]);
  });

  it.each([
    ['Codex: usage_limit_reached', { 'x-codex-primary-used-percent': '100' }, '{"error":{"type":"usage_limit_reached","message":"You\'ve hit your usage limit."}}'],
    ['Codex: the limit-reached header', { 'x-codex-rate-limit-reached-type': 'primary' }, '{"error":{"message":"slow down"}}'],
    ['Claude: unified status rejected', { 'anthropic-ratelimit-unified-status': 'rejected' }, '{"type":"error","error":{"type":"rate_limit_error","message":"limit"}}'],
  ])('a plan-limit 429 (%s) is usage-limit, not rate-limited', async (_, headers, body) => {
    bench.upstream.handle = (_req, res) => void res.writeHead(429, { 'content-type': 'application/json', ...headers }).end(body);
    const proxy = await bench.start({ upstream: planUpstream([]) });
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', body: '{"model":"m"}' }));
    expect(proxy.requests()[0]).toMatchObject({ status: 429, failure: 'usage-limit', quota: headers, detail: expect.stringContaining("usage limit was reached") });
  });

  it('a plain 429 stays rate-limited', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"message":"slow down"}}');
    const proxy = await bench.start({ upstream: planUpstream([]) });
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', body: '{"model":"m"}' }));
    expect(proxy.requests()[0]).toMatchObject({ failure: 'rate-limited', quota: null });
  });
});
