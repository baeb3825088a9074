// Latency the metering proxy adds to a streamed model response: a local SSE upstream sends 50
// Anthropic-style events (each its own write, usage in message_start/message_delta); a client
// times first byte and last byte talking to it directly over TCP and through the proxy on a unix
// socket (keep-alive on both sides, requests alternated so drift hits both equally). Upstream,
// proxies and client run in their own processes, as the API, bakeoff and the sandboxed agent do.
// The closed-web tool policy (decision 013) reads each request body whole before relaying it: a
// second proxy with the policy bypassed (the relay as it was before) gives what the policy adds,
// in the same run, for a Claude Code-sized body (BENCH_BODY_KB) with nothing to withhold and the
// same body with a server tool to strip.
// Usage: npm run build && node bench/proxy-latency.mjs   (BENCH_REQUESTS, BENCH_WARMUP, BENCH_EVENTS, BENCH_BODY_KB)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './median.mjs';

const N = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 50);
const BODY_KB = Number(process.env.BENCH_BODY_KB ?? 88);
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

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
else if (role === 'proxy') await serveProxy(process.argv[3], process.argv[4], process.argv[5] === 'bypass');
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
async function serveProxy(upstreamUrl, socket, bypassToolPolicy) {
  const { startMeterProxy } = await import('../dist/meter/proxy/proxy.js');
  const { scriptedUpstream } = await import('../dist/meter/proxy/upstream.js');
  const proxy = await startMeterProxy({ listen: { socket }, upstream: scriptedUpstream(upstreamUrl), bypassToolPolicy });
  process.on('message', (message) => {
    const metered = proxy.requests();
    if (message === 'count') {
      process.send({
        total: metered.length,
        counted: metered.filter((r) => r.failure === null && r.usage?.outputTokens === 44).length,
        stripped: metered.filter((r) => r.withheld.some((w) => w.action === 'stripped')).length,
      });
    }
  });
  process.on('disconnect', () => void proxy.close().then(() => process.exit(0)));
  process.send({ url: proxy.url });
}

function child(args) {
  const proc = fork(fileURLToPath(import.meta.url), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return { proc, next: () => new Promise((resolve) => proc.once('message', resolve)) };
}

/**
 * A request body the size of Claude Code's (88 KB: a long system prompt, 12 tools with schemas, a
 * conversation), with the server tool web_search_20250305 among its tools when `withSearch`.
 */
function requestBody(withSearch) {
  const schema = (n) => ({ type: 'object', properties: Object.fromEntries([...Array(8).keys()].map((i) => [`field_${n}_${i}`, { type: 'string', description: 'x'.repeat(120) }])), required: [`field_${n}_0`] });
  const tools = [...Array(12).keys()].map((n) => ({ name: `Tool${n}`, description: `Tool ${n}. ${'Does a thing. '.repeat(40)}`, input_schema: schema(n) }));
  const body = { model: 'claude-sonnet-4-5', max_tokens: 32000, stream: true, system: [{ type: 'text', text: '' }], tools: withSearch ? [...tools, { type: 'web_search_20250305', name: 'web_search' }] : tools, messages: [{ role: 'user', content: 'Fix the failing test.' }] };
  const filler = BODY_KB * 1024 - JSON.stringify(body).length;
  body.system[0].text = 'You are a coding agent. '.repeat(Math.max(0, Math.ceil(filler / 24)));
  return JSON.stringify(body);
}

async function runClient() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bakeoff-bench-proxy-'));
  const up = child(['upstream']);
  const upstreamPort = (await up.next()).port;
  const px = child(['proxy', `http://127.0.0.1:${upstreamPort}`, path.join(dir, 'model.sock'), 'policy']);
  const bare = child(['proxy', `http://127.0.0.1:${upstreamPort}`, path.join(dir, 'bare.sock'), 'bypass']);
  const proxyUrl = (await px.next()).url;
  const bareUrl = (await bare.next()).url;

  const plainBody = requestBody(false);
  const searchBody = requestBody(true);
  const agents = [];
  const at = (where) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return { agent, ...where };
  };
  const targets = {
    direct: { where: at({ host: '127.0.0.1', port: upstreamPort }), body: plainBody },
    bare: { where: at({ socketPath: bareUrl.slice('unix:'.length) }), body: plainBody },
    policy: { where: at({ socketPath: proxyUrl.slice('unix:'.length) }), body: plainBody },
    stripped: { where: at({ socketPath: proxyUrl.slice('unix:'.length) }), body: searchBody },
  };

  /** One streamed request: ms to the first body byte and to the last. */
  function timeOne({ where, body }) {
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

  const names = Object.keys(targets);
  for (let i = 0; i < WARMUP; i++) for (const name of names) await timeOne(targets[name]);
  const counts = async () => {
    const replies = [px, bare].map((p) => p.next());
    px.proc.send('count');
    bare.proc.send('count');
    return Promise.all(replies);
  };
  const [before, bareBefore] = await counts();
  const results = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < N; i++) {
    // rotate the order, so drift and warm caches hit every variant alike
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length];
      results[name].push(await timeOne(targets[name]));
    }
  }
  const [after, bareAfter] = await counts();
  const counted = after.counted - before.counted;
  const stripped = after.stripped - before.stripped;

  const line = (label, xs) => `${label.padEnd(40)}${median(xs).toFixed(3).padStart(9)} ms${quantile(xs, 0.9).toFixed(3).padStart(10)} ms`;
  const added = (label, xs, ys) => `${label.padEnd(40)}${(median(xs) - median(ys)).toFixed(3).padStart(9)} ms${(quantile(xs, 0.9) - quantile(ys, 0.9)).toFixed(3).padStart(10)} ms`;
  console.log(`metering proxy latency: ${EVENTS} SSE events (${results.direct[0].bytes} bytes) per answer, ${(Buffer.byteLength(plainBody) / 1024).toFixed(0)} KB request bodies, N=${N} after ${WARMUP} warm-up rounds`);
  console.log(`${''.padEnd(40)}${'median'.padStart(12)}${'p90'.padStart(13)}`);
  for (const [key, label] of [['ttfb', 'first byte'], ['ttlb', 'last byte']]) {
    const of = (name) => results[name].map((r) => r[key]);
    console.log(line(`${label}, direct`, of('direct')));
    console.log(line(`${label}, proxy without the policy`, of('bare')));
    console.log(line(`${label}, proxy (nothing to withhold)`, of('policy')));
    console.log(line(`${label}, proxy (strips web_search)`, of('stripped')));
    console.log(added(`${label}, the proxy adds`, of('policy'), of('direct')));
    console.log(added(`${label}, the policy adds`, of('policy'), of('bare')));
    console.log(added(`${label}, stripping adds`, of('stripped'), of('bare')));
  }
  console.log(`metered ${counted}/${after.total - before.total} requests through the policy with their usage (expected ${2 * N}), stripped web_search from ${stripped} (expected ${N}); ${bareAfter.counted - bareBefore.counted} through the bypass`);

  for (const agent of agents) agent.destroy();
  for (const p of [px, bare]) p.proc.disconnect();
  up.proc.disconnect();
  await Promise.all([px, bare].map((p) => new Promise((resolve) => p.proc.once('exit', resolve))));
  rmSync(dir, { recursive: true, force: true });
  if (counted !== 2 * N || stripped !== N) process.exitCode = 1;
}
