import { describe, expect, it } from 'vitest';
import { ANTHROPIC_FIELDS, ANTHROPIC_INPUTS, ANTHROPIC_TOOLS, anthropicMessagesPolicy as policy } from './anthropic-messages.js';

const bash = { name: 'Bash', description: 'run a command', input_schema: { type: 'object' } };
const body = (extra: Record<string, unknown>): Record<string, unknown> => ({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'fix the bug' }], ...extra });
const entries = ANTHROPIC_TOOLS.flatMap((rule) => rule.examples.map((example) => [rule.name, rule.runs, example] as const));

describe('the Anthropic Messages tool table', () => {
  it('withholds exactly the tools the provider runs', () => {
    expect(ANTHROPIC_TOOLS.filter((r) => r.runs === 'provider').map((r) => r.name)).toEqual(['web_search_<date>', 'web_fetch_<date>', 'code_execution_<date>', 'advisor_<date>', 'tool_search_tool_regex_<date> / _bm25_<date>', 'mcp_toolset', 'openrouter:<tool>']);
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('strips %s (%s) and relays the rest', (_name, _runs, tool) => {
    const request = body({ tools: [bash, tool] });
    const seen = policy.inspect(request);
    expect(seen.refusal).toBeNull();
    expect(seen.body.tools).toEqual([bash]);
    expect(seen.items).toEqual([expect.objectContaining({ where: 'tools[1]', action: 'stripped', what: expect.stringContaining(String(tool.type)) })]);
    expect(request.tools).toEqual([bash, tool]); // the client's body is never changed in place
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('refuses a tool_choice forcing %s', (_name, _runs, tool) => {
    const seen = policy.inspect(body({ tools: [bash, tool], tool_choice: { type: 'tool', name: tool.name ?? tool.type } }));
    expect(seen.refusal).toMatch(/tool_choice forces/);
    expect(seen.items.map((i) => i.action)).toContain('refused');
  });

  it.each(entries.filter(([, runs]) => runs === 'client'))('keeps %s, which the harness runs', (_name, _runs, tool) => {
    const request = body({ tools: [bash, tool], tool_choice: { type: 'tool', name: tool.name } });
    const seen = policy.inspect(request);
    expect(seen).toEqual({ body: request, items: [], refusal: null });
  });

  it('refuses a tool type no entry knows, and says which', () => {
    const seen = policy.inspect(body({ tools: [bash, { type: 'web_browse_20261201', name: 'browse' }] }));
    expect(seen.refusal).toContain('"web_browse_20261201"');
    expect(seen.items).toEqual([{ what: 'unknown tool type web_browse_20261201', where: 'tools[1]', action: 'refused' }]);
  });

  it.each(ANTHROPIC_FIELDS.map((rule) => [rule.field, rule] as const))('strips the request field %s', (field, rule) => {
    const seen = policy.inspect(body({ tools: [bash], [field]: rule.example }));
    expect(seen.refusal).toBeNull();
    expect(seen.body).not.toHaveProperty(field);
    expect(seen.items).toEqual([expect.objectContaining({ where: field, action: 'stripped' })]);
  });

  it.each(ANTHROPIC_INPUTS.map((rule) => [rule.name, rule.example] as const))('refuses %s, wherever the block sits', (_name, block) => {
    const inUser = policy.inspect(body({ messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, block] }] }));
    expect(inUser.refusal).toMatch(/messages\[0\]\.content\[1\]/);
    const inToolResult = policy.inspect(body({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [block] }] }] }));
    expect(inToolResult.items).toEqual([expect.objectContaining({ where: 'messages[0].content[0].content[0]', action: 'refused' })]);
  });

  it('keeps inline images and a tool call whose own arguments look like a URL source', () => {
    const request = body({
      messages: [
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { source: { type: 'url', url: 'https://example.com' } } }] },
      ],
    });
    expect(policy.inspect(request)).toEqual({ body: request, items: [], refusal: null });
  });
});

describe('signs in an Anthropic answer that the provider ran a tool', () => {
  it.each([
    ['server-tool usage in message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9, server_tool_use: { web_search_requests: 2 } } }, 'usage.server_tool_use.web_search_requests 2'],
    ['a web fetch counted in a whole message', { type: 'message', content: [], usage: { input_tokens: 1, output_tokens: 1, server_tool_use: { web_fetch_requests: 1 } } }, 'usage.server_tool_use.web_fetch_requests 1'],
    ['a server_tool_use block starting', { type: 'content_block_start', index: 1, content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} } }, 'content block server_tool_use web_search'],
    ['a web search result block', { type: 'message', content: [{ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }] }, 'content block web_search_tool_result'],
    ['a code-execution result', { type: 'content_block_start', index: 2, content_block: { type: 'bash_code_execution_tool_result', tool_use_id: 's', content: {} } }, 'content block bash_code_execution_tool_result'],
    ['a hosted MCP call', { type: 'message', content: [{ type: 'mcp_tool_use', id: 'm', name: 'search', server_name: 'docs', input: {} }] }, 'content block mcp_tool_use search'],
    ['a code-execution container', { type: 'message', content: [], container: { id: 'container_1', expires_at: '2026-12-01T00:00:00Z' } }, 'a code-execution container'],
  ])('%s', (_what, payload, sign) => {
    expect(policy.usedTools(payload)).toContain(sign);
  });

  it('finds none in an answer with client tool calls and zero counters', () => {
    expect(policy.usedTools({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'Bash', input: {} } })).toEqual([]);
    expect(policy.usedTools({ type: 'message_delta', usage: { output_tokens: 3, server_tool_use: { web_search_requests: 0 } } })).toEqual([]);
    expect(policy.usedTools({ type: 'message', content: [{ type: 'text', text: 'Done.' }], container: null })).toEqual([]);
  });
});
