import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer } from '../../model-server/start-model-server.js';
import type { ModelServer } from '../../model-server/types.js';
import { startMeterProxy } from './proxy.js';
import { openRequest, readBody } from './proxy-test-kit.test-support.js';
import type { MeterProxy } from './proxy-types.js';
import type { WireFormat } from '../types.js';
import { scriptedUpstream } from './upstream.js';

/*
 * The scripted model's `truncated` (a clean end before the final event) and `disconnect` (the
 * connection destroyed mid-event) streams, through the real proxy, for every wire format: both
 * are `truncated`, and the proxy says what happened in its own words.
 */

let dir: string;
const servers: ModelServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-proxy-truncated-'));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function through(script: 'truncated' | 'disconnect', format: WireFormat, requestPath: string): Promise<{ proxy: MeterProxy; cut: boolean }> {
  const server = await startModelServer({ listen: {}, script });
  servers.push(server);
  const proxy = await startMeterProxy({ listen: { socket: path.join(dir, `${script}-${format}-${servers.length}.sock`) }, upstream: scriptedUpstream(server.url) });
  const body = JSON.stringify({ model: 'm', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }], input: [], contents: [] });
  const res = await openRequest(proxy.url, { path: requestPath, headers: { 'content-type': 'application/json' }, body });
  const cut = await readBody(res).then(() => false, () => true);
  await proxy.close();
  return { proxy, cut };
}

const FORMATS: [WireFormat, string, string][] = [
  ['anthropic-messages', '/v1/messages?beta=true', 'message_stop'],
  ['openai-responses', '/v1/responses', 'response.completed (or .incomplete / .failed)'],
  ['openai-chat', '/v1/chat/completions', 'data: [DONE] (or a chunk with a finish_reason)'],
  ['gemini-generate', '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse', 'a chunk with a finishReason'],
];

describe('the proxy on streams cut before their final event', () => {
  it.each(FORMATS)('%s: a clean end is truncated, relayed with a clean end', async (format, requestPath, missing) => {
    const { proxy, cut } = await through('truncated', format, requestPath);
    expect(cut).toBe(false);
    const [record] = proxy.requests();
    expect(record).toMatchObject({ format, status: 200, failure: 'truncated' });
    expect(record!.detail).toMatch(new RegExp(`^the ${format} stream ended after \\d+ bytes without ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });

  it.each(FORMATS)('%s: a broken connection is truncated (not unreachable), the client cut too', async (format, requestPath, missing) => {
    const { proxy, cut } = await through('disconnect', format, requestPath);
    expect(cut).toBe(true);
    const [record] = proxy.requests();
    expect(record).toMatchObject({ format, status: 200, failure: 'truncated' });
    expect(record!.detail).toContain(`the connection broke after `);
    expect(record!.detail).toContain(`bytes of the ${format} stream (HTTP 200), before ${missing}`);
  });
});

describe('the proxy tells a watcher about each request as it starts and as it ends', () => {
  it('onRequestStart before the answer, onRequestEnd with the record (a cut stream: truncated)', async () => {
    const server = await startModelServer({ listen: {}, script: 'truncated' });
    servers.push(server);
    const events: string[] = [];
    const proxy = await startMeterProxy({
      listen: { socket: path.join(dir, 'watched.sock') },
      upstream: scriptedUpstream(server.url),
      onRequestStart: (request) => events.push(`start ${request.seq} ${request.method}`),
      onRequestEnd: (request) => events.push(`end ${request.seq} ${request.failure}`),
    });
    const body = JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < 2; i++) await readBody(await openRequest(proxy.url, { path: '/v1/messages', headers: { 'content-type': 'application/json' }, body }));
    await proxy.close();
    expect(events).toEqual(['start 1 POST', 'end 1 truncated', 'start 2 POST', 'end 2 truncated']);
    expect(proxy.requests().map((r) => r.failure)).toEqual(['truncated', 'truncated']);
  });
});
