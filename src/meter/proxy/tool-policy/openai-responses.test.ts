import { describe, expect, it } from 'vitest';
import { openaiResponsesPolicy as policy, RESPONSES_FIELDS, RESPONSES_INPUTS, RESPONSES_TOOLS } from './openai-responses.js';

const exec = { type: 'function', name: 'exec_command', parameters: { type: 'object' } };
const body = (extra: Record<string, unknown>): Record<string, unknown> => ({ model: 'gpt-5.5', stream: true, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] }], ...extra });
const entries = RESPONSES_TOOLS.flatMap((rule) => rule.examples.map((example) => [rule.name, rule.runs, example] as const));

describe('the OpenAI Responses tool table (the ChatGPT/Codex backend too)', () => {
  it('withholds exactly the tools the provider runs', () => {
    expect(RESPONSES_TOOLS.filter((r) => r.runs === 'provider').map((r) => r.name)).toEqual(['web_search / web_search_preview (dated too)', 'file_search', 'code_interpreter', 'image_generation', 'mcp', 'shell (hosted container)', 'tool_search (server execution)', 'namespace (holding provider tools)', 'openrouter:<tool>']);
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('strips %s and relays the rest', (_name, _runs, tool) => {
    const request = body({ tools: [exec, tool], tool_choice: 'auto' });
    const seen = policy.inspect(request);
    expect(seen.refusal).toBeNull();
    expect(seen.body.tools).toEqual([exec]);
    expect(seen.items).toEqual([expect.objectContaining({ where: 'tools[1]', action: 'stripped' })]);
    expect(request.tools).toEqual([exec, tool]);
  });

  it.each(entries.filter(([, runs]) => runs === 'provider'))('refuses a tool_choice forcing %s', (_name, _runs, tool) => {
    const choice = typeof tool.name === 'string' ? { type: 'function', name: tool.name } : { type: tool.type };
    const seen = policy.inspect(body({ tools: [exec, tool], tool_choice: choice }));
    expect(seen.refusal).toMatch(/tool_choice forces/);
  });

  it.each(entries.filter(([, runs]) => runs === 'client'))('keeps %s, which the harness runs', (_name, _runs, tool) => {
    const request = body({ tools: [exec, tool], tool_choice: 'required' });
    expect(policy.inspect(request)).toEqual({ body: request, items: [], refusal: null });
  });

  it('strips Codex\'s own web_search from a request as Codex 0.171 sends it, keeping its client tool_search', () => {
    const toolSearch = { type: 'tool_search', execution: 'client', description: 'Searches over deferred tool metadata', parameters: { type: 'object' } };
    const webSearch = { type: 'web_search', external_web_access: true, search_content_types: ['text', 'image'] };
    const seen = policy.inspect(body({ tools: [exec, { type: 'custom', name: 'apply_patch' }, toolSearch, webSearch], tool_choice: 'auto' }));
    expect(seen.body.tools).toEqual([exec, { type: 'custom', name: 'apply_patch' }, toolSearch]);
    expect(seen.items).toEqual([{ what: 'tool web_search (web search)', where: 'tools[3]', action: 'stripped' }]);
  });

  it.each([
    [{ type: 'web_search_preview' }],
    [{ type: 'file_search' }],
    [{ type: 'code_interpreter' }],
    [{ type: 'image_generation' }],
    [{ type: 'mcp', server_label: 'deepwiki' }],
    [{ type: 'browse_the_web' }],
  ])('refuses tool_choice %j even without the tool declared', (choice) => {
    expect(policy.inspect(body({ tools: [exec], tool_choice: choice })).refusal).toMatch(/tool_choice forces/);
  });

  it('keeps the client entries of allowed_tools, and refuses a list of provider tools only', () => {
    const mixed = policy.inspect(body({ tools: [exec], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'exec_command' }, { type: 'web_search' }] } }));
    expect(mixed.refusal).toBeNull();
    expect(mixed.body.tool_choice).toEqual({ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'exec_command' }] });
    const only = policy.inspect(body({ tools: [exec], tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] } }));
    expect(only.refusal).toMatch(/only tools the provider runs/);
  });

  it('refuses a tool type no entry knows', () => {
    const seen = policy.inspect(body({ tools: [exec, { type: 'browser_agent' }] }));
    expect(seen.items).toEqual([{ what: 'unknown tool type browser_agent', where: 'tools[1]', action: 'refused' }]);
  });

  it.each(RESPONSES_FIELDS.map((rule) => [rule.field, rule] as const))('applies the field rule %s', (field, rule) => {
    const seen = policy.inspect(body({ tools: [exec], [field]: rule.example }));
    if (rule.action === 'strip') {
      expect(seen.body).not.toHaveProperty(field);
      expect(seen.refusal).toBeNull();
    } else expect(seen.refusal).toContain(field);
  });

  it.each([
    ...RESPONSES_INPUTS.map((rule) => [rule.name, rule.example] as const),
    ['input_image of a stored file', { type: 'input_image', file_id: 'file-abc', detail: 'auto' }] as const,
    ['input_file of a stored file', { type: 'input_file', file_id: 'file-abc' }] as const,
  ])('refuses %s, in a message and in a function call output', (_name, part) => {
    expect(policy.inspect(body({ input: [{ type: 'message', role: 'user', content: [part] }] })).refusal).toMatch(/input\[0\]\.content\[0\]/);
    const output = policy.inspect(body({ input: [{ type: 'function_call_output', call_id: 'c', output: [part] }] }));
    expect(output.items).toEqual([expect.objectContaining({ where: 'input[0].output[0]', action: 'refused' })]);
  });

  it('keeps inline data: images and files', () => {
    const request = body({ input: [{ type: 'message', role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' }, { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' }] }] });
    expect(policy.inspect(request).items).toEqual([]);
  });
});

describe('signs in a Responses answer that the provider ran a tool', () => {
  it.each([
    ['a web_search_call item added', { type: 'response.output_item.added', item: { type: 'web_search_call', id: 'ws_1', status: 'in_progress' } }, 'output item web_search_call'],
    ['a web search event', { type: 'response.web_search_call.searching', item_id: 'ws_1' }, 'event response.web_search_call'],
    ['a code interpreter call in the completed response', { type: 'response.completed', response: { output: [{ type: 'code_interpreter_call', id: 'ci' }] } }, 'output item code_interpreter_call'],
    ['a hosted shell\'s output', { type: 'response.output_item.done', item: { type: 'shell_call_output', call_id: 'c' } }, 'output item shell_call_output'],
    ['a URL citation', { type: 'response.output_text.annotation.added', annotation: { type: 'url_citation', url: 'https://example.com' } }, 'annotation url_citation'],
    ['a citation inside a whole message', { object: 'response', output: [{ type: 'message', content: [{ type: 'output_text', text: 'x', annotations: [{ type: 'url_citation' }] }] }] }, 'annotation url_citation'],
    ['a server-side tool search', { type: 'response.output_item.done', item: { type: 'tool_search_call', execution: 'server' } }, 'output item tool_search_call'],
  ])('%s', (_what, payload, sign) => {
    expect(policy.usedTools(payload)).toContain(sign);
  });

  it('finds none in function calls and client tool searches', () => {
    expect(policy.usedTools({ type: 'response.output_item.done', item: { type: 'function_call', name: 'exec_command' } })).toEqual([]);
    expect(policy.usedTools({ type: 'response.output_item.done', item: { type: 'tool_search_call', execution: 'client' } })).toEqual([]);
  });
});
