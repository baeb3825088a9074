import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useProxyBench } from './proxy-bench.test-support.js';
import { openRequest, readBody } from './proxy-test-kit.test-support.js';
import type { WireFormat } from '../types.js';
import { scriptedUpstream } from './upstream.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/wire/', import.meta.url));
const fixture = (format: WireFormat, file: string): string => readFileSync(`${fixtures}${format}/${file}`, 'utf8');
const bench = useProxyBench('bakeoff-proxy-policy-');
const json = { 'content-type': 'application/json' };

const withSearch = {
  model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'fix it' }],
  tools: [{ name: 'Bash', input_schema: { type: 'object' } }, { type: 'web_search_20250305', name: 'web_search' }],
};

/*
 * The tool policy inside the running proxy: what the upstream receives, what the client is
 * answered, and what the record keeps (decision 013).
 */
describe('the metering proxy\'s tool policy', () => {
  it('relays a request without its provider tool, with a content-length that fits the new body, and records what it withheld', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(fixture('anthropic-messages', 'streamed-tool-turn.sse'));
    const proxy = await bench.start({ upstream: scriptedUpstream(bench.upstream.url) });
    const res = await openRequest(proxy.url, { path: '/v1/messages?beta=true', headers: json, body: JSON.stringify(withSearch) });
    expect(res.statusCode).toBe(200);
    await readBody(res);
    const seen = bench.upstream.seen[0]!;
    expect(JSON.parse(seen.body)).toEqual({ ...withSearch, tools: [withSearch.tools[0]] });
    expect(Number(seen.headers['content-length'])).toBe(Buffer.byteLength(seen.body));
    expect(proxy.requests()[0]).toMatchObject({
      status: 200, failure: null, providerToolUse: [],
      withheld: [{ what: 'tool web_search_20250305 (web search)', where: 'tools[1]', action: 'stripped' }],
    });
  });

  it('answers a forced provider tool with a 400 in the format\'s shape and never relays it', async () => {
    const proxy = await bench.start({ upstream: scriptedUpstream(bench.upstream.url) });
    const res = await openRequest(proxy.url, { path: '/v1/responses', headers: json, body: JSON.stringify({ model: 'gpt-5.5', input: 'x', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search_preview' } }) });
    expect(res.statusCode).toBe(400);
    const error = JSON.parse(await readBody(res)) as { error: { message: string; code: string } };
    expect(error.error).toMatchObject({ code: 'bakeoff_closed_web', message: expect.stringMatching(/^bakeoff closed web: tool_choice forces web_search_preview/) });
    expect(bench.upstream.seen).toEqual([]);
    expect(proxy.requests()[0]).toMatchObject({ status: 400, failure: 'refused', detail: error.error.message, usage: null, withheld: [{ action: 'refused' }, { action: 'refused' }] });
  });

  it('refuses an endpoint that is not generation, with a 404, before any credential is added', async () => {
    const proxy = await bench.start({ upstream: scriptedUpstream(bench.upstream.url) });
    const res = await openRequest(proxy.url, { path: '/v1/messages/batches', headers: json, body: JSON.stringify({ requests: [{ custom_id: 'a', params: withSearch }] }) });
    expect(res.statusCode).toBe(404);
    await readBody(res);
    expect(bench.upstream.seen).toEqual([]);
    expect(proxy.requests()[0]).toMatchObject({ failure: 'refused', withheld: [{ what: 'endpoint POST /v1/messages/batches', where: 'path', action: 'refused' }] });
  });

  it('records the signs of a provider tool in the answer', async () => {
    const used = fixture('anthropic-messages', 'streamed-tool-turn.sse').replace('"usage":{"output_tokens":', '"usage":{"server_tool_use":{"web_search_requests":1},"output_tokens":');
    expect(used).toContain('server_tool_use');
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(used);
    const proxy = await bench.start({ upstream: scriptedUpstream(bench.upstream.url) });
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', headers: json, body: JSON.stringify({ ...withSearch, tools: [] }) }));
    expect(proxy.requests()[0]).toMatchObject({ failure: null, providerToolUse: ['usage.server_tool_use.web_search_requests 1'] });
  });

  it('lets provider tools through on the open web, unchanged, and records them as allowed', async () => {
    bench.upstream.handle = (_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(fixture('anthropic-messages', 'streamed-tool-turn.sse'));
    const proxy = await bench.start({ upstream: scriptedUpstream(bench.upstream.url), openWeb: true });
    const body = JSON.stringify(withSearch);
    await readBody(await openRequest(proxy.url, { path: '/v1/messages', headers: json, body }));
    expect(bench.upstream.seen[0]!.body).toBe(body);
    expect(proxy.requests()[0]!.withheld).toEqual([{ what: 'tool web_search_20250305 (web search)', where: 'tools[1]', action: 'allowed' }]);
  });
});
