// Latency the metering proxy adds to a streamed model response: a local SSE upstream sends 50
// Anthropic-style events (each its own write, usage in message_start/message_delta); a client
// times first byte and last byte talking to it directly over TCP and through the proxy on a unix
// socket (keep-alive on both sides, requests alternated so drift hits both equally). Upstream,
// proxy and client run in three processes, as the API, bakeoff and the sandboxed agent do.
// Usage: npm run build && node bench/proxy-latency.mjs   (BENCH_REQUESTS, BENCH_WARMUP, BENCH_EVENTS)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const N = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50);
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

function sseEvents() {
  const ev = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  const events = [ev('message_start', { type: 'message_start', message: { id: 'msg_b', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], usage: { input_tokens: 1111, cache_read_input_tokens: 222, cache_creation_input_tokens: 33, output_tokens: 1 } } })];
  events.push(ev('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
  for (let i = 0; i < EVENTS - 5; i++) events.push(ev('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `token ${i} of a streamed answer ` } }));
  events.push(ev('content_block_stop', { type: 'content_block_stop', index: 0 }));
  events.push(ev('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 44 } }));
  events.push(ev('message_stop', { type: 'message_stop' }));
  return events;
}

const role = process.argv[2];
if (role === 'upstream') await serveUpstream();
else if (role === 'proxy') await serveProxy(process.argv[3], process.argv[4]);
else await runClient();

/** Child: the model API stand-in. Tells the parent its port. */
async function serveUpstream() {
  const events = sseEvents();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let i = 0;
      // One write per event, each on its own turn of the event loop, as a model API streams them.
      const next = () => {
        if (i === events.length) return void res.end();
        res.write(events[i++]);
        setImmediate(next);
      };
      next();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send({ port: server.address().port });
  process.on('disconnect', () => process.exit(0));
}

/** Child: the metering proxy on a unix socket. Answers `count` with how many requests it metered with usage. */
async function serveProxy(upstreamUrl, socket) {
  const { startMeterProxy } = await import('../dist/meter/proxy/proxy.js');
  const { scriptedUpstream } = await import('../dist/meter/proxy/upstream.js');
  const proxy = await startMeterProxy({ listen: { socket }, upstream: scriptedUpstream(upstreamUrl) });
  process.on('message', (message) => {
    const metered = proxy.requests();
    if (message === 'count') process.send({ total: metered.length, counted: metered.filter((r) => r.failure === null && r.usage?.outputTokens === 44).length });
  });
  process.on('disconnect', () => void proxy.close().then(() => process.exit(0)));
  process.send({ url: proxy.url });
}

function child(args) {
  const proc = fork(fileURLToPath(import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return { proc, next: () => new Promise((resolve) => proc.once('message', resolve)) };
}

async function runClient() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-proxy-'));
  const up = child(['upstream']);
  const upstreamPort = (await up.next()).port;
  const px = child(['proxy', `http://127.0.0.1:${upstreamPort}`, path.join(dir, 'model.sock')]);
  const proxyUrl = (await px.next()).url;

  const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'hi' }] });
  const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const proxyAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const direct = { agent: directAgent, host: '127.0.0.1', port: upstreamPort };
  const viaProxy = { agent: proxyAgent, socketPath: proxyUrl.slice('unix:'.length) };

  /** One streamed request: ms to the first body byte and to the last. */
  function timeOne(where) {
    return new Promise((resolve, reject) => {
      const t0 = performance.now();
      let first = null;
      let bytes = 0;
      const req = http.request({ ...where, method: 'POST', path: '/v1/messages', headers: { 'content-type': 'application/json', 'x-api-key': 'dummy', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.on('data', (chunk) => {
          first ??= performance.now() - t0;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ ttfb: first, ttlb: performance.now() - t0, bytes }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  for (let i = 0; i < WARMUP; i++) {
    await timeOne(direct);
    await timeOne(viaProxy);
  }
  px.proc.send('count');
  const before = await px.next();
  const results = { direct: [], proxy: [] };
  for (let i = 0; i < N; i++) {
    results.direct.push(await timeOne(direct));
    results.proxy.push(await timeOne(viaProxy));
  }
  px.proc.send('count');
  const after = await px.next();
  const counted = after.counted - before.counted;

  const line = (label, xs) => `${label.padEnd(22)}${median(xs).toFixed(3).padStart(9)} ms${quantile(xs, 0.9).toFixed(3).padStart(10)} ms`;
  console.log(`metering proxy latency: ${EVENTS} SSE events (${results.direct[0].bytes} bytes) per request, N=${N} after ${WARMUP} warm-up pairs`);
  console.log(`${''.padEnd(22)}${'median'.padStart(12)}${'p90'.padStart(13)}`);
  for (const [key, label] of [['ttfb', 'first byte'], ['ttlb', 'last byte']]) {
    const d = results.direct.map((r) => r[key]);
    const p = results.proxy.map((r) => r[key]);
    console.log(line(`${label}, direct`, d));
    console.log(line(`${label}, via proxy`, p));
    console.log(`${`${label}, added`.padEnd(22)}${(median(p) - median(d)).toFixed(3).padStart(9)} ms${(quantile(p, 0.9) - quantile(d, 0.9)).toFixed(3).padStart(10)} ms`);
  }
  console.log(`metered ${counted}/${after.total - before.total} proxied requests with their usage (expected ${N})`);

  directAgent.destroy();
  proxyAgent.destroy();
  px.proc.disconnect();
  up.proc.disconnect();
  await new Promise((resolve) => px.proc.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
  if (counted !== N) process.exitCode = 1;
}
