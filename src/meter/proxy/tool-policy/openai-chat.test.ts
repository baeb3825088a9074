import { describe, expect, it } from 'vitest';
import { CHAT_FIELDS, CHAT_INPUTS, CHAT_TOOLS, openaiChatPolicy as policy } from './openai-chat.js';

const bash = { type: 'function', function: { name: 'bash', parameters: { type: 'object' } } };
const body = (extra: Record<string, unknown>): Record<string, unknown> => ({ model: 'stub-model', stream: true, messages: [{ role: 'user', content: 'fix it' }], ...extra });
const entries = CHAT_TOOLS.flatMap((rule) => rule.examples.map((example) => [rule.name, rule.runs, example] as const));

describe('the Chat Completions tool table', () => {
  it('withholds exactly the tools the provider runs', () => {
    expect(CHAT_TOOLS.filter((r) => r.runs === 'provider').map((r) => r.name)).toEqual(['openrouter:<tool>', 'web_search / web_search_preview / browser_search', 'code_interpreter', 'file_search / mcp / image_generation']);
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('strips %s and relays the rest', (_name, _runs, tool) => {
    const seen = policy.inspect(body({ tools: [bash, tool] }));
    expect(seen.refusal).toBeNull();
    expect(seen.body.tools).toEqual([bash]);
    expect(seen.items).toEqual([expect.objectContaining({ where: 'tools[1]', action: 'stripped' })]);
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('refuses a tool_choice forcing %s', (_name, _runs, tool) => {
    expect(policy.inspect(body({ tools: [bash, tool], tool_choice: { type: tool.type } })).refusal).toMatch(/tool_choice forces/);
  });

  it.each(entries.filter(([, runs]) => runs === 'client'))('keeps %s, which the harness runs', (_name, _runs, tool) => {
    const request = body({ tools: [bash, tool], tool_choice: { type: 'function', function: { name: 'bash' } } });
    expect(policy.inspect(request)).toEqual({ body: request, items: [], refusal: null });
  });

  it('refuses a tool type no entry knows', () => {
    expect(policy.inspect(body({ tools: [bash, { type: 'retrieval' }] })).items).toEqual([{ what: 'unknown tool type retrieval', where: 'tools[1]', action: 'refused' }]);
  });

  it.each(CHAT_FIELDS.map((rule) => [rule.field, rule] as const))('strips the request field %s', (field, rule) => {
    const seen = policy.inspect(body({ tools: [bash], [field]: rule.example }));
    expect(seen.refusal).toBeNull();
    expect(seen.body).not.toHaveProperty(field);
    expect(seen.items).toEqual([expect.objectContaining({ where: field, action: 'stripped' })]);
  });

  it.each([
    ...CHAT_INPUTS.map((rule) => [rule.name, rule.example] as const),
    ['a file part whose file_data is a URL (OpenRouter)', { type: 'file', file: { filename: 'paper.pdf', file_data: 'https://bitcoin.org/bitcoin.pdf' } }] as const,
  ])('refuses %s, in a user message and in a tool message', (_name, part) => {
    expect(policy.inspect(body({ messages: [{ role: 'user', content: [{ type: 'text', text: 'see' }, part] }] })).refusal).toMatch(/messages\[0\]\.content\[1\]/);
    expect(policy.inspect(body({ messages: [{ role: 'tool', tool_call_id: 'c', content: [part] }] })).items).toHaveLength(1);
  });

  it('keeps data: images and tool calls whose arguments mention URLs', () => {
    const request = body({
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: '{"command":"curl https://example.com"}' } }] },
      ],
    });
    expect(policy.inspect(request).items).toEqual([]);
  });
});

describe('signs in a Chat Completions answer that the provider searched', () => {
  it.each([
    ['a URL citation in a message', { choices: [{ message: { role: 'assistant', content: 'x', annotations: [{ type: 'url_citation', url_citation: { url: 'https://e.com' } }] } }] }, 'annotation url_citation'],
    ['a URL citation in a delta', { choices: [{ delta: { annotations: [{ type: 'url_citation' }] } }] }, 'annotation url_citation'],
    ['Perplexity citations', { choices: [], citations: ['https://e.com'] }, 'citations'],
    ['Perplexity search results', { choices: [], search_results: [{ url: 'https://e.com' }] }, 'search_results'],
    ['OpenRouter server-tool usage', { choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, server_tool_use: { web_search_requests: 1 } } }, 'usage.server_tool_use.web_search_requests 1'],
    ['Groq executed tools', { choices: [{ message: { content: 'x', executed_tools: [{ type: 'browser_search' }] } }] }, 'executed_tools'],
  ])('%s', (_what, payload, sign) => {
    expect(policy.usedTools(payload)).toContain(sign);
  });

  it('finds none in an ordinary chunk', () => {
    expect(policy.usedTools({ choices: [{ delta: { tool_calls: [{ index: 0, function: { name: 'bash' } }] } }], usage: null })).toEqual([]);
  });
});
