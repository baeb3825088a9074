import { Agent, request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { parseUsage } from '../meter/usage/parse-usage.js';
import { REPLAY_EXHAUSTED } from './load-replay-script.js';
import { startModelServer } from './start-model-server.js';
import type { GoldSession, ModelServer, ModelServerOptions } from './types.js';

const dir = await mkdtemp(path.join(tmpdir(), 'bakeoff-model-server-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const open: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function start(options: Partial<ModelServerOptions> & { script: string }): Promise<ModelServer> {
  const server = await startModelServer({ listen: {}, ...options });
  open.push(server);
  return server;
}

const bashTool = { name: 'bash', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } };
const messages = (extra: Record<string, unknown> = {}) => ({ model: 'm', stream: false, messages: [{ role: 'user', content: 'go' }], tools: [bashTool], ...extra });
const session = (workspace: string): GoldSession => ({ workspace, edits: [{ path: 'gone.txt', before: 'x\n', after: null }] });

async function post(server: ModelServer, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(server.url + url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
const json = async (response: Response): Promise<any> => response.json();

describe('startModelServer routes', () => {
  it('answers count_tokens, model lists, HEAD and unknown paths, and records every request', async () => {
    const server = await start({ script: 'gold' });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await json(await post(server, '/v1/messages/count_tokens?beta=true', messages()))).toEqual({ input_tokens: 1200 });
    expect(await json(await post(server, '/v1beta/models/gemini-2.5-pro:countTokens', {}))).toEqual({ totalTokens: 1200 });
    expect((await json(await fetch(`${server.url}/v1/models`))).data.map((m: { id: string }) => m.id)).toContain('gpt-5.5');
    expect((await json(await fetch(`${server.url}/v1beta/models`))).models[0].name).toMatch(/^models\//);
    expect((await fetch(`${server.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${server.url}/v1/nothing`)).status).toBe(404);
    expect(server.requests().map((r) => [r.seq, r.reply, r.status])).toEqual([
      [1, 'count-tokens', 200],
      [2, 'count-tokens', 200],
      [3, 'list-models', 200],
      [4, 'list-models', 200],
      [5, 'hello', 200],
      [6, 'not-found', 404],
    ]);
  });

  it('reads gzip bodies, and answers 400 to a body that is not JSON', async () => {
    const server = await start({ script: 'gold' });
    const gz = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: gzipSync(JSON.stringify(messages({ tools: [] }))) });
    expect((await json(gz)).content[0].text).toBe('Scripted answer.');
    expect((await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{oops' })).status).toBe(400);
  });

  it('keeps an idle keep-alive connection open past Node\'s 5 s default (6 s with its buffer), so a proxy reusing it never races a close', async () => {
    const server = await start({ script: 'gold' });
    const agent = new Agent({ keepAlive: true });
    const get = () => new Promise<void>((resolve, reject) => httpRequest(`${server.url}/v1/models`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end());
    await get();
    const [socket] = Object.values(agent.freeSockets).flat();
    await new Promise((r) => setTimeout(r, 7_000)); // Node closes after keepAliveTimeout + 1 s
    expect(socket?.destroyed).toBe(false);
    await get();
    agent.destroy();
  }, 20_000);

  it('listens on a Unix socket', async () => {
    const socket = path.join(dir, 'model.sock');
    const server = await start({ script: 'gold', listen: { socket } });
    expect(server.url).toBe(socket);
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest({ socketPath: socket, path: '/v1/chat/completions', method: 'POST' }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ model: 'm', messages: [] }));
    });
    expect(JSON.parse(body).object).toBe('chat.completion');
  });
});

describe('sessions', () => {
  it('uses the session registered for the x-bakeoff-session header, else the resolver, else "*"', async () => {
    const seen: Array<string | null> = [];
    const server = await start({
      script: 'gold',
      sessions: (token) => {
        seen.push(token);
        return token === 'resolved' ? session('/resolved') : null;
      },
    });
    server.registerSession('tok', session('/registered'));
    server.registerSession('*', session('/default'));
    const commandFor = async (headers: Record<string, string>) => (await json(await post(server, '/v1/messages', messages(), headers))).content[1].input.command;
    expect(await commandFor({ 'x-bakeoff-session': 'tok' })).toBe("rm '/registered/gone.txt'");
    expect(await commandFor({ 'x-bakeoff-session': 'resolved' })).toBe("rm '/resolved/gone.txt'");
    expect(await commandFor({})).toBe("rm '/default/gone.txt'");
    expect(seen).toEqual(['resolved', null]);
    expect(server.requests().map((r) => r.session)).toEqual(['tok', 'resolved', null]);
  });

  it('answers text without edits when no session is known', async () => {
    const server = await start({ script: 'gold' });
    const answer = await json(await post(server, '/v1/messages', messages()));
    expect(answer.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Done: no session/) }]);
    expect(answer.stop_reason).toBe('end_turn');
  });
});

describe('fault scripts', () => {
  it.each([
    ['/v1/messages?beta=true', { type: 'error', error: { type: 'api_error' } }],
    ['/v1/responses', { error: { type: 'server_error' } }],
    ['/v1/chat/completions', { error: { type: 'server_error' } }],
    ['/v1beta/models/g:streamGenerateContent?alt=sse', { error: { code: 500, status: 'INTERNAL' } }],
  ])('500: POST %s gets HTTP 500 with the format\'s error body', async (url, shape) => {
    const server = await start({ script: '500' });
    const response = await post(server, url, messages({ stream: true }));
    expect(response.status).toBe(500);
    expect(await json(response)).toMatchObject(shape);
    // Everything but generation still works, so a CLI starts up normally.
    expect((await post(server, '/v1/messages/count_tokens', {})).status).toBe(200);
  });

  it('429: answers rate-limited with retry-after: 1', async () => {
    const server = await start({ script: '429' });
    const response = await post(server, '/v1/messages', messages());
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await json(response)).toMatchObject({ error: { type: 'rate_limit_error' } });
    expect(server.requests()[0]).toMatchObject({ reply: 'error:429', status: 429, format: 'anthropic-messages', model: 'm' });
  });

  it('hang: never answers, and close() still ends promptly', async () => {
    const server = await start({ script: 'hang' });
    const pending = post(server, '/v1/responses', { model: 'm', stream: true, input: [] }).then(
      () => 'answered',
      () => 'dropped',
    );
    const raced = await Promise.race([pending, new Promise((r) => setTimeout(() => r('still waiting'), 300))]);
    expect(raced).toBe('still waiting');
    const started = Date.now();
    await server.close();
    open.splice(0);
    expect(await pending).toBe('dropped');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.requests()[0]).toMatchObject({ reply: 'hang', status: 0 });
  });

  it.each([
    ['anthropic-messages', '/v1/messages', true],
    ['openai-chat', '/v1/chat/completions', true],
    ['openai-responses', '/v1/responses', false],
    ['gemini-generate', '/v1beta/models/g:generateContent', false],
  ] as const)('malformed: %s (streamed %s) is a 200 whose JSON is cut off', async (format, url, streamed) => {
    const server = await start({ script: 'malformed' });
    const response = await post(server, url, messages({ stream: streamed, stream_options: { include_usage: true } }));
    expect(response.status).toBe(200);
    const text = await response.text();
    if (streamed) expect(text).toMatch(/^(event: \S+\n)?data: \{/);
    const parsed = parseUsage(format, text, { streamed });
    expect(parsed.usage).toBeNull();
    expect(parsed.problems.join('\n')).toMatch(/malformed JSON/);
  });
});

/** POSTs over plain node:http and reads what arrives, also when the connection breaks mid-body. */
async function rawPost(server: ModelServer, url: string, body: unknown): Promise<{ status: number; text: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.url + url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('error', () => {}); // a broken body: reported by 'close' below
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text, complete: res.complete }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('truncated and disconnect scripts', () => {
  const gemini = '/v1beta/models/g:streamGenerateContent';
  const streams = [
    ['anthropic-messages', '/v1/messages', /^event: message_start\n/, /message_stop|message_delta/],
    ['openai-responses', '/v1/responses', /^event: response\.created\n/, /response\.completed|response\.incomplete|response\.failed/],
    ['openai-chat', '/v1/chat/completions', /^data: \{"id":"chatcmpl-/, /\[DONE\]|"finish_reason":"/],
    ['gemini-generate', `${gemini}?alt=sse`, /^data: \{"candidates"/, /finishReason/],
    ['gemini-generate', gemini, /^\[\{"candidates"/, /finishReason|\]$/],
  ] as const;
  const body = messages({ stream: true, stream_options: { include_usage: true }, tools: [] });

  it.each(streams)('truncated: %s %s streams the answer\'s beginning, then ends cleanly without the final event', async (_format, url, opening, final) => {
    const server = await start({ script: 'truncated' });
    const { status, text, complete } = await rawPost(server, url, body);
    expect({ status, complete }).toEqual({ status: 200, complete: true });
    expect(text).toMatch(opening);
    expect(text).not.toMatch(final);
    expect(server.requests()[0]).toMatchObject({ reply: 'truncated', status: 200 });
  });

  it.each(streams)('disconnect: %s %s streams the beginning, then the connection breaks in the middle of an event', async (_format, url, opening, final) => {
    const server = await start({ script: 'disconnect' });
    const { status, text, complete } = await rawPost(server, url, body);
    expect({ status, complete }).toEqual({ status: 200, complete: false });
    expect(text).toMatch(opening);
    expect(text).not.toMatch(final);
    expect(text).not.toMatch(/\n\n$/);
    expect(server.requests()[0]).toMatchObject({ reply: 'disconnect' });
  });

  it('truncated: a non-streamed answer has no final event and is given whole', async () => {
    const server = await start({ script: 'truncated' });
    const answer = await json(await post(server, '/v1/messages', messages({ tools: [] })));
    expect(answer).toMatchObject({ stop_reason: 'end_turn', content: [{ text: 'Scripted answer.' }] });
  });
});

describe('replay scripts', () => {
  async function replayFile(content: unknown): Promise<string> {
    const file = path.join(dir, `replay-${Math.random().toString(16).slice(2)}.json`);
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  }

  it('answers the replies in order, per session token, and then says the replay is over', async () => {
    const script = await replayFile({ replies: [{ tool: { name: 'bash', args: { command: 'ls' } } }, { status: 503 }, { text: 'All done.' }] });
    const server = await start({ script });
    const as = (token?: string) => post(server, '/v1/messages', messages(), token ? { 'x-bakeoff-session': token } : {});
    expect((await json(await as('a'))).content[0]).toMatchObject({ type: 'tool_use', name: 'bash', input: { command: 'ls' } });
    expect((await json(await as('b'))).content[0]).toMatchObject({ type: 'tool_use', name: 'bash' });
    const failed = await as('a');
    expect(failed.status).toBe(503);
    expect(await json(failed)).toMatchObject({ type: 'error', error: { message: 'replayed 503' } });
    expect((await json(await as('a'))).content[0].text).toBe('All done.');
    expect((await json(await as('a'))).content[0].text).toBe(REPLAY_EXHAUSTED);
    expect((await json(await as())).content[0].name).toBe('bash'); // no token: its own sequence
  });

  it('does not use up a reply on requests that offer no tools', async () => {
    const server = await start({ script: await replayFile({ replies: [{ text: 'first' }] }) });
    expect((await json(await post(server, '/v1/messages', messages({ tools: [] })))).content[0].text).toBe('Scripted answer.');
    expect((await json(await post(server, '/v1/messages', messages()))).content[0].text).toBe('first');
  });

  it('sends string args as a custom tool call where the tool is custom, else as {input}', async () => {
    const server = await start({ script: await replayFile({ replies: [{ tool: { name: 'apply_patch', args: '*** Begin Patch' } }] }) });
    const custom = await json(await post(server, '/v1/responses', { model: 'm', input: [], tools: [{ type: 'custom', name: 'apply_patch' }] }));
    expect(custom.output[0]).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch' });
    const fn = await json(await post(server, '/v1/responses', { model: 'm', input: [], tools: [{ type: 'function', name: 'apply_patch' }] }, { 'x-bakeoff-session': 'other' }));
    expect(fn.output[0]).toMatchObject({ type: 'function_call', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' });
  });

  it('streams a tool reply without text to Gemini as a function call (an empty text first, the call in the last chunk)', async () => {
    const server = await start({ script: await replayFile({ replies: [{ tool: { name: 'run_shell_command', args: { command: 'ls' } } }] }) });
    const tools = [{ functionDeclarations: [{ name: 'run_shell_command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }] }];
    const { text } = await rawPost(server, '/v1beta/models/g:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: 'go' }] }], tools });
    const chunks = text.split('\n\n').filter((e) => e.startsWith('data: ')).map((e) => JSON.parse(e.slice('data: '.length)));
    expect(chunks.map((c) => c.candidates[0].content.parts)).toEqual([[{ text: '' }], [{ functionCall: { name: 'run_shell_command', args: { command: 'ls' } } }]]);
  });

  it('waits delaySec before each answer (the file\'s, tool-less answers included), a reply\'s own delaySec winning', async () => {
    const server = await start({ script: await replayFile({ delaySec: 0.6, replies: [{ text: 'slow' }, { text: 'quick', delaySec: 0 }] }) });
    const timed = async (token: string, body = messages()) => {
      const t0 = performance.now();
      const text = (await json(await post(server, '/v1/messages', body, { 'x-bakeoff-session': token }))).content[0].text as string;
      return { text, ms: performance.now() - t0, at: performance.now() };
    };
    const first = await timed('b');
    expect(first.text).toBe('slow');
    expect(first.ms).toBeGreaterThanOrEqual(600);
    const toolless = await timed('c', messages({ tools: [] }));
    expect(toolless).toMatchObject({ text: 'Scripted answer.' });
    expect(toolless.ms).toBeGreaterThanOrEqual(600);
    // b's second reply has no wait: sent together with a's first, it arrives first
    const [slow, quick] = await Promise.all([timed('a'), timed('b')]);
    expect([slow.text, quick.text]).toEqual(['slow', 'quick']);
    expect(quick.at).toBeLessThan(slow.at);
    expect(slow.ms).toBeGreaterThanOrEqual(600);
  });

  it('refuses a delaySec that is not a number of seconds from 0 to 3600, naming the field', async () => {
    const negative = await startModelServer({ listen: {}, script: await replayFile({ delaySec: -1, replies: [{ text: 'x' }] }) }).catch((e: unknown) => e);
    expect(negative).toBeInstanceOf(InputError);
    expect((negative as InputError).message).toMatch(/: delaySec: expected .*>=\s?0/);
    const text = await startModelServer({ listen: {}, script: await replayFile({ replies: [{ text: 'x', delaySec: '5' }] }) }).catch((e: unknown) => e);
    expect(text).toBeInstanceOf(InputError);
    expect((text as InputError).message).toContain('replies.0: expected {"text"}, {"tool": {"name", "args"}} or {"status", "body"?, "headers"?}, each with an optional "delaySec"');
  });

  it('refuses a replay file that is missing or malformed, naming the file and the field', async () => {
    await expect(startModelServer({ listen: {}, script: path.join(dir, 'nope.json') })).rejects.toThrow(/nope\.json: cannot read the replay script/);
    const bad = await replayFile({ replies: [{ text: 'ok' }, { tool: { name: 'x' } }] });
    const error = await startModelServer({ listen: {}, script: bad }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toContain(`${bad}: replies.1: expected {"text"}`);
    await expect(startModelServer({ listen: {}, script: await replayFile('{') })).rejects.toThrow(/expected JSON/);
  });
});
