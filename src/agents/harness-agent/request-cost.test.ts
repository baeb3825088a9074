import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { reportCommand } from '../../cli/commands/report.js';
import { openPriceBook } from '../../meter/prices/price-book.js';
import { startMeterProxy } from '../../meter/proxy/proxy.js';
import { openRequest, readBody } from '../../meter/proxy/proxy-test-kit.test-support.js';
import type { MeteredRequest } from '../../meter/proxy/proxy-types.js';
import { scriptedUpstream } from '../../meter/proxy/upstream.js';
import { startModelServer } from '../../model-server/start-model-server.js';
import { testRun } from '../../report/view/test-runs.test-support.js';
import { openStore } from '../../store/open-store.js';
import { sessionCost } from './account-session.js';
import { requestRowsOf } from './request-rows.js';

/*
 * Cost at the request's time, through the real parts: bakeoff's scripted model answers two
 * Chat Completions requests for deepseek-chat through the metering proxy, one at 10:00 UTC (the
 * catalog's peak hours, 00:30–16:30) and one at 20:00 UTC (off-peak); each is priced at its own
 * time, stored in a results folder, and `bakeoff report` gives the same cost on any clock.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-request-cost-'));
});
afterAll(async () => {
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

/** Two requests through the proxy, the clock set to each time before it is sent. */
async function meterAt(times: readonly string[]): Promise<MeteredRequest[]> {
  const server = await startModelServer({ listen: {}, script: 'gold' });
  const proxy = await startMeterProxy({ listen: { socket: path.join(dir, 'proxy.sock') }, upstream: scriptedUpstream(server.url) });
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    for (const time of times) {
      vi.setSystemTime(new Date(time));
      const body = JSON.stringify({ model: 'deepseek-chat', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'hi' }] });
      await readBody(await openRequest(proxy.url, { path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body }));
    }
  } finally {
    vi.useRealTimers();
    await proxy.close();
    await server.close();
  }
  return proxy.requests();
}

/** `bakeoff report <dir> --format json`, in this process, with the clock at `now`. */
async function reportAt(now: string): Promise<{ runs: { costUsd: number | null }[]; agents: { costUsd: number | null }[] }> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(now));
  try {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (c: Buffer) => (text += c.toString()));
    expect(await reportCommand(dir, { format: 'json', wide: false, explain: false, matrix: false, color: false }, { stdout, stderr: new PassThrough(), cwd: dir, env: {} })).toBe(0);
    return JSON.parse(text) as { runs: { costUsd: number | null }[]; agents: { costUsd: number | null }[] };
  } finally {
    vi.useRealTimers();
  }
}

describe('cost at the request\'s time', () => {
  it('prices two requests made at two times of day at two prices, stores them, and every re-report adds up the same stored cost', async () => {
    const metered = await meterAt(['2026-12-01T10:00:00Z', '2026-12-01T20:00:00Z']);
    expect(metered.map((r) => [r.startedAt, r.failure, r.usage?.model])).toEqual([
      ['2026-12-01T10:00:00.000Z', null, 'deepseek-chat'],
      ['2026-12-01T20:00:00.000Z', null, 'deepseek-chat'],
    ]);
    const book = await openPriceBook();
    const cost = sessionCost(metered, (model, at) => book.priceOf(model, undefined, at), 'deepseek/deepseek-chat');
    // scripted usage: 1000 uncached + 200 cache read in, 40 out; deepseek-chat per MTok: peak 0.27 / 0.07 / 1.1, off-peak 0.135 / 0.035 / 0.55
    const peak = (1000 * 0.27 + 200 * 0.07 + 40 * 1.1) / 1e6;
    const offPeak = (1000 * 0.135 + 200 * 0.035 + 40 * 0.55) / 1e6;
    expect(cost.requests.map((r) => r.costUsd)).toEqual([peak, offPeak]);
    expect(cost.requests.map((r) => r.basis)).toEqual([
      'catalog deepseek/deepseek-chat, 00:30–16:30 UTC: $0.27 input, $0.07 cache read, $0.27 cache write, $1.1 output per MTok',
      'catalog deepseek/deepseek-chat, outside 00:30–16:30 UTC: $0.135 input, $0.035 cache read, $0.135 cache write, $0.55 output per MTok',
    ]);

    const store = openStore(dir, { create: true });
    const agent = { id: 'opencode:deepseek/deepseek-chat', harness: 'opencode', version: '1.18.33', model: 'deepseek/deepseek-chat', effort: null };
    const session = { order: 1, exitCode: 0, timedOut: false, durationMs: 1, tokensIn: 2400, tokensOut: 80, costUsd: cost.costUsd, error: null, requests: requestRowsOf(metered, cost.requests) };
    store.saveRun(testRun({ id: 'r1', agent, costUsd: cost.costUsd, tokensIn: 2400, tokensOut: 80 }), [session], [], store.artifactsTempDir('r1'));
    expect(store.sessions('r1')[0]!.requests!.map((r) => [r.startedAt, r.costUsd, r.costBasis])).toEqual([
      ['2026-12-01T10:00:00.000Z', peak, cost.requests[0]!.basis],
      ['2026-12-01T20:00:00.000Z', offPeak, cost.requests[1]!.basis],
    ]);
    store.close();

    // reported at peak time, off-peak, and a year on: the stored cost, never re-priced
    for (const now of ['2026-12-01T10:00:00Z', '2026-12-01T20:00:00Z', '2027-12-01T03:00:00Z']) {
      const report = await reportAt(now);
      expect(report.runs.map((r) => r.costUsd)).toEqual([peak + offPeak]);
      expect(report.agents.map((a) => a.costUsd)).toEqual([peak + offPeak]);
    }
  });
});
