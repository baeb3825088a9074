import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { applyToolPolicy, type PolicyRequest } from './apply-tool-policy.js';
import { ENDPOINTS, endpointOf } from './endpoints.js';
import { providerToolUseOf } from './provider-tool-use.js';
import { SEARCH_MODELS } from './tool-policies.js';

const request = (over: Partial<PolicyRequest> & { json?: unknown }): PolicyRequest => ({
  method: 'POST',
  path: '/v1/messages',
  route: 'anthropic-messages',
  body: over.json === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(over.json)),
  contentEncoding: undefined,
  openWeb: false,
  ...over,
});
const withSearch = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [], tools: [{ name: 'Bash', input_schema: {} }, { type: 'web_search_20250305', name: 'web_search' }] };

describe('the endpoint table', () => {
  it.each(ENDPOINTS.map((e) => [`${e.method} ${e.example}`, e] as const))('relays %s', (_name, e) => {
    const endpoint = endpointOf(e.method, e.example);
    expect(endpoint).not.toBeNull();
    if (e.format !== null) expect(endpoint).toMatchObject({ kind: 'inspected', format: e.format });
  });

  it.each([
    ['POST', '/v1/messages/batches'],
    ['POST', '/v1/files'],
    ['GET', '/v1/files'],
    ['GET', '/v1/files/file-abc/content'],
    ['POST', '/v1/containers'],
    ['POST', '/v1/threads/runs'],
    ['POST', '/v1/vector_stores'],
    ['POST', '/v1beta/cachedContents'],
    ['POST', '/v1beta/models/gemini-2.5-pro:batchGenerateContent'],
    ['GET', '/v1/responses/resp_123'],
    ['GET', '/v1/responses'],
    ['POST', '/v1/models/../files'],
    ['GET', '/v1/models/..%2Ffiles'],
    ['POST', '/v1/%6Dessages'],
    ['DELETE', '/v1/models/gpt-5'],
  ])('refuses %s %s', (method, path) => {
    expect(endpointOf(method, path)).toBeNull();
    const verdict = applyToolPolicy(request({ method, path }));
    expect(verdict).toMatchObject({ kind: 'refuse', status: 404, items: [{ where: 'path', action: 'refused' }] });
  });

  it('refuses an endpoint on the open web too', () => {
    expect(applyToolPolicy(request({ method: 'POST', path: '/v1/messages/batches', openWeb: true })).kind).toBe('refuse');
  });
});

describe('applyToolPolicy', () => {
  it('relays a clean body byte for byte, without parsing it again', () => {
    const json = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'Bash', input_schema: {} }] };
    expect(applyToolPolicy(request({ json }))).toEqual({ kind: 'relay', body: null, items: [] });
  });

  it('rewrites a body it stripped something from, and says what', () => {
    const verdict = applyToolPolicy(request({ json: withSearch }));
    expect(verdict.kind).toBe('relay');
    if (verdict.kind !== 'relay') return;
    expect(JSON.parse(verdict.body!.toString())).toEqual({ ...withSearch, tools: [{ name: 'Bash', input_schema: {} }] });
    expect(verdict.items).toEqual([{ what: 'tool web_search_20250305 (web search)', where: 'tools[1]', action: 'stripped' }]);
  });

  it('reads a gzip body and sends the rewritten one uncompressed', () => {
    const verdict = applyToolPolicy(request({ body: gzipSync(JSON.stringify(withSearch)), contentEncoding: 'gzip' }));
    expect(verdict).toMatchObject({ kind: 'relay', items: [{ action: 'stripped' }] });
  });

  it('refuses, in the wire format\'s own error shape, a request forcing a withheld tool', () => {
    const verdict = applyToolPolicy(request({ json: { ...withSearch, tool_choice: { type: 'tool', name: 'web_search' } } }));
    expect(verdict).toMatchObject({ kind: 'refuse', status: 400 });
    if (verdict.kind !== 'refuse') return;
    expect(JSON.parse(verdict.body)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: verdict.message } });
    expect(verdict.message).toMatch(/^bakeoff closed web: tool_choice forces "web_search"/);
    expect(verdict.items.every((i) => i.action === 'refused')).toBe(true);
  });

  it.each([
    ['openai-responses', '/v1/responses', { model: 'gpt-5.5', input: 'x', tool_choice: { type: 'web_search_preview' } }, (b: Record<string, Record<string, unknown>>) => b.error!.code === 'bakeoff_closed_web'],
    ['gemini-generate', '/v1beta/models/gemini-2.5-pro:generateContent', { contents: [], cachedContent: 'cachedContents/x' }, (b: Record<string, Record<string, unknown>>) => b.error!.status === 'INVALID_ARGUMENT' && b.error!.code === 400],
  ] as const)('answers a %s refusal in that format\'s error shape', (route, path, json, shaped) => {
    const verdict = applyToolPolicy(request({ route, path, json }));
    expect(verdict.kind).toBe('refuse');
    if (verdict.kind === 'refuse') expect(shaped(JSON.parse(verdict.body) as Record<string, Record<string, unknown>>)).toBe(true);
  });

  it.each(SEARCH_MODELS.map((rule) => [rule.example, rule.name] as const))('refuses the model %s (%s)', (model) => {
    expect(applyToolPolicy(request({ path: '/v1/chat/completions', route: 'openai-chat', json: { model, messages: [] } }))).toMatchObject({ kind: 'refuse', status: 400, items: [{ where: 'model', action: 'refused' }] });
  });

  it('refuses a Gemini deep-research model named in the path', () => {
    expect(applyToolPolicy(request({ path: '/v1beta/models/deep-research-pro-preview:generateContent', route: 'gemini-generate', json: { contents: [] } }))).toMatchObject({ kind: 'refuse', items: [{ where: 'path' }] });
  });

  it.each([
    ['not JSON', { body: Buffer.from('{"tools": [') }, 400],
    ['a JSON array', { body: Buffer.from('[]') }, 400],
    ['zstd-compressed', { body: Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), contentEncoding: 'zstd' }, 415],
    ['gzip that is not gzip', { body: Buffer.from('nope'), contentEncoding: 'gzip' }, 415],
  ] as const)('refuses a generation body that is %s: what the policy cannot read, it does not relay', (_what, over, status) => {
    expect(applyToolPolicy(request(over))).toMatchObject({ kind: 'refuse', status });
  });

  it('lets everything through on the open web, unchanged, and records it as allowed', () => {
    const json = { ...withSearch, tool_choice: { type: 'tool', name: 'web_search' }, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://e.com/a.png' } }] }] };
    const verdict = applyToolPolicy(request({ json, openWeb: true }));
    expect(verdict.kind).toBe('relay');
    if (verdict.kind !== 'relay') return;
    expect(verdict.body).toBeNull();
    expect(verdict.items.map((i) => i.action)).toEqual(['allowed', 'allowed', 'allowed']);
  });

  // text is not an input: a CLI sends the model's earlier tool calls back as history, URLs and all
  it.each([
    ['/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'see https://e.com/fix' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'WebFetch', input: { url: 'https://e.com/fix' } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'denied' }] }] }],
    ['/v1/responses', { model: 'gpt-5.5', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'see https://e.com/fix' }] }, { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{"cmd":"curl https://e.com/fix"}' }, { type: 'function_call_output', call_id: 'c1', output: 'no network' }] }],
    ['/v1/chat/completions', { model: 'gpt-5.5', messages: [{ role: 'user', content: 'see https://e.com/fix' }, { role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"curl https://e.com/fix"}' } }] }, { role: 'tool', tool_call_id: 'c1', content: 'no network' }] }],
    ['/v1beta/models/gemini-2.5-pro:generateContent', { contents: [{ role: 'user', parts: [{ text: 'see https://e.com/fix' }] }, { role: 'model', parts: [{ functionCall: { name: 'web_fetch', args: { prompt: 'read https://e.com/fix' } } }] }] }],
  ])('relays a URL the model or the user wrote as text (%s), unchanged', (path, json) => {
    expect(applyToolPolicy(request({ path, route: null, json }))).toEqual({ kind: 'relay', body: null, items: [] });
  });

  it('relays model listings and pre-warms without a body', () => {
    expect(applyToolPolicy(request({ method: 'GET', path: '/v1/models' }))).toEqual({ kind: 'relay', body: null, items: [] });
    expect(applyToolPolicy(request({ method: 'HEAD', path: '/api/hello' }))).toEqual({ kind: 'relay', body: null, items: [] });
  });
});

describe('providerToolUseOf', () => {
  it('reads every event of a stream', () => {
    const sse = [
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s","name":"web_search","input":{}}}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":3,"server_tool_use":{"web_search_requests":1}}}\n\n',
    ].join('');
    expect(providerToolUseOf('anthropic-messages', sse, true)).toEqual(['content block server_tool_use web_search', 'usage.server_tool_use.web_search_requests 1']);
  });

  it('skips parsing an answer without any telltale word', () => {
    expect(providerToolUseOf('openai-chat', 'data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: [DONE]\n\n', true)).toEqual([]);
  });
});
