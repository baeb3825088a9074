import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPayloads } from '../meter/usage/read-payloads.js';
import { parseUsage } from '../meter/usage/parse-usage.js';
import { scriptedUsage } from './scripted-usage.js';
import { startModelServer } from './start-model-server.js';
import type { ModelServer, WireFormat } from './types.js';

const writeSchema = { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] };

/** A minimal request of each format, offering a `write` tool or none. */
function requestOf(format: WireFormat, streamed: boolean, withTool: boolean): { path: string; body: unknown } {
  const user = 'Create the file.';
  switch (format) {
    case 'anthropic-messages':
      return { path: '/v1/messages?beta=true', body: { model: 'm', stream: streamed, messages: [{ role: 'user', content: user }], ...(withTool && { tools: [{ name: 'write', input_schema: writeSchema }] }) } };
    case 'openai-responses':
      return { path: '/v1/responses', body: { model: 'm', stream: streamed, input: [{ role: 'user', content: user }], ...(withTool && { tools: [{ type: 'function', name: 'write', parameters: writeSchema }] }) } };
    case 'openai-chat':
      return {
        path: '/v1/chat/completions',
        body: { model: 'm', stream: streamed, stream_options: { include_usage: true }, messages: [{ role: 'user', content: user }], ...(withTool && { tools: [{ type: 'function', function: { name: 'write', parameters: writeSchema } }] }) },
      };
    case 'gemini-generate':
      return {
        path: `/v1beta/models/m:${streamed ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        body: { contents: [{ role: 'user', parts: [{ text: user }] }], ...(withTool && { tools: [{ functionDeclarations: [{ name: 'write', parametersJsonSchema: writeSchema }] }] }) },
      };
  }
}

const FORMATS: WireFormat[] = ['anthropic-messages', 'openai-responses', 'openai-chat', 'gemini-generate'];
const CASES = FORMATS.flatMap((format) => [true, false].flatMap((streamed) => [true, false].map((withTool) => [format, streamed, withTool] as const)));

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ listen: {}, script: 'gold' });
  server.registerSession('*', { workspace: '/w', edits: [{ path: 'a.txt', before: null, after: 'hi\n' }] });
});
afterAll(() => server.close());

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('scriptedUsage', () => {
  it.each(CASES)('%s (streamed %s, tool call %s): the meter reads back exactly scriptedUsage', async (format, streamed, withTool) => {
    const { path, body } = requestOf(format, streamed, withTool);
    const response = await post(path, body);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(streamed ? /^text\/event-stream/ : /^application\/json/);
    const text = await response.text();
    expect(parseUsage(format, text, { streamed })).toEqual({ usage: scriptedUsage(format, 'm'), problems: [], missingFinalEvent: null, malformedPayloads: 0 });
  });

  it('differs between formats only where the APIs have no cache-write field', () => {
    expect(scriptedUsage('anthropic-messages')).toMatchObject({ inputTokens: 1230, cacheReadTokens: 200, cacheWriteTokens: 30, outputTokens: 40, reasoningTokens: 5 });
    for (const format of FORMATS.slice(1)) {
      expect(scriptedUsage(format)).toMatchObject({ inputTokens: 1200, cacheReadTokens: 200, cacheWriteTokens: 0, outputTokens: 40, reasoningTokens: 5 });
    }
  });

  it('reads a Gemini stream sent as a JSON array (no alt=sse) the same way', async () => {
    const { body } = requestOf('gemini-generate', true, true);
    const text = await (await post('/v1beta/models/m:streamGenerateContent', body)).text();
    expect(text.startsWith('[')).toBe(true);
    expect(parseUsage('gemini-generate', text, { streamed: true })).toEqual({ usage: scriptedUsage('gemini-generate', 'm'), problems: [], missingFinalEvent: null, malformedPayloads: 0 });
  });
});

/** Loosely typed stream payloads: the test reads them the way a client would. */
type Loose = Record<string, any>;

/** The tool call a client reassembles from each stream. */
function toolCallOf(format: WireFormat, text: string): { name: string; args: unknown } {
  const payloads = readPayloads(text, true).payloads.map((p) => p.data as Loose);
  switch (format) {
    case 'anthropic-messages': {
      const start = payloads.find((p) => p.type === 'content_block_start' && p.content_block.type === 'tool_use')!;
      const json = payloads.filter((p) => p.index === start.index && p.delta?.type === 'input_json_delta').map((p) => p.delta.partial_json).join('');
      return { name: start.content_block.name, args: JSON.parse(json) };
    }
    case 'openai-responses': {
      const added = payloads.find((p) => p.type === 'response.output_item.added')!;
      const json = payloads.filter((p) => p.type === 'response.function_call_arguments.delta').map((p) => p.delta).join('');
      return { name: added.item.name, args: JSON.parse(json) };
    }
    case 'openai-chat': {
      const calls = payloads.flatMap((p) => p.choices?.[0]?.delta?.tool_calls ?? []);
      return { name: calls[0].function.name, args: JSON.parse(calls.map((c: Loose) => c.function.arguments).join('')) };
    }
    case 'gemini-generate': {
      const call = payloads.flatMap((p) => p.candidates[0].content.parts).find((part: Loose) => part.functionCall).functionCall;
      return { name: call.name, args: call.args };
    }
  }
}

describe('streams', () => {
  it.each(FORMATS)('%s: a client reassembles the tool call from the deltas', async (format) => {
    const { path, body } = requestOf(format, true, true);
    const text = await (await post(path, body)).text();
    expect(toolCallOf(format, text)).toEqual({ name: 'write', args: { path: '/w/a.txt', content: 'hi\n' } });
  });

  it('sends the event sequence of the captured Anthropic and Responses streams', async () => {
    const events = async (format: WireFormat) => {
      const { path, body } = requestOf(format, true, true);
      const text = await (await post(path, body)).text();
      return [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    };
    expect(await events('anthropic-messages')).toEqual([
      'message_start',
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      ...['content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop'],
      'message_delta',
      'message_stop',
    ]);
    expect(await events('openai-responses')).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('ends a Chat Completions stream with [DONE], and sends usage only when include_usage asked', async () => {
    const { path, body } = requestOf('openai-chat', true, false);
    const withUsage = await (await post(path, body)).text();
    expect(withUsage.endsWith('data: [DONE]\n\n')).toBe(true);
    const without = await (await post(path, { ...(body as object), stream_options: undefined })).text();
    expect(without).not.toContain('"usage"');
    expect(without.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
