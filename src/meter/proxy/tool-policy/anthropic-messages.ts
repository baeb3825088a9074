import { dated, findInputs, inspected, isRecord, shortUrl, sortFields, sortTools } from './inspect-parts.js';
import type { FieldRule, FormatPolicy, InputRule, Inspection, PolicyItem, ToolRule } from './types.js';

/*
 * Anthropic Messages (`POST /v1/messages`, `/v1/messages/count_tokens`), as the API reference's
 * tool reference lists it (2026-11: platform.claude.com "Tool reference"; @anthropic-ai/sdk
 * 0.91.1 `BetaToolUnion`). A declaration without a `type` (or `custom`) is the caller's own
 * function tool. Server tools run on Anthropic's infrastructure; bash, text editor, computer use
 * and memory are defined by Anthropic but executed by the caller (the harness, in the sandbox).
 */

const client = (name: string, does: string, match: (type: string) => boolean, ...types: string[]): ToolRule => ({
  name, runs: 'client', does, matches: match, examples: types.map((type) => ({ type, name: type.replace(/_\d{8}$/, '') })),
});
const provider = (name: string, does: string, match: (type: string) => boolean, ...examples: Record<string, unknown>[]): ToolRule => ({
  name, runs: 'provider', does, matches: match, examples,
});

/** Every tool type of Anthropic Messages, and who runs it. */
export const ANTHROPIC_TOOLS: readonly ToolRule[] = [
  client('custom', 'a function tool of the harness', (t) => t === 'custom', 'custom'),
  client('bash_<date>', 'bash, run by the harness', dated('bash_'), 'bash_20241022', 'bash_20250124'),
  client('text_editor_<date>', 'a file editor, run by the harness', dated('text_editor_'), 'text_editor_20241022', 'text_editor_20250124', 'text_editor_20250429', 'text_editor_20250728'),
  client('computer_<date>', 'computer use, run by the harness', dated('computer_'), 'computer_20241022', 'computer_20250124', 'computer_20251124'),
  client('memory_<date>', 'a memory directory, run by the harness', dated('memory_'), 'memory_20250818'),
  provider('web_search_<date>', 'web search', dated('web_search_'),
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5 }, { type: 'web_search_20260209', name: 'web_search' }, { type: 'web_search_20260318', name: 'web_search' }),
  provider('web_fetch_<date>', 'web fetch', dated('web_fetch_'),
    { type: 'web_fetch_20250910', name: 'web_fetch' }, { type: 'web_fetch_20260209', name: 'web_fetch' }, { type: 'web_fetch_20260309', name: 'web_fetch' }, { type: 'web_fetch_20260318', name: 'web_fetch' }),
  provider('code_execution_<date>', 'code execution in a provider container', dated('code_execution_'),
    { type: 'code_execution_20250522', name: 'code_execution' }, { type: 'code_execution_20250825', name: 'code_execution' }, { type: 'code_execution_20260120', name: 'code_execution' }, { type: 'code_execution_20260521', name: 'code_execution' }),
  provider('advisor_<date>', 'a second model consulted on the provider', dated('advisor_'), { type: 'advisor_20260301', name: 'advisor', model: 'claude-opus-4-5' }),
  provider('tool_search_tool_regex_<date> / _bm25_<date>', 'tool search on the provider', (t) => dated('tool_search_tool_regex_')(t) || dated('tool_search_tool_bm25_')(t),
    { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' }, { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }),
  provider('mcp_toolset', 'tools of a hosted MCP server', (t) => t === 'mcp_toolset', { type: 'mcp_toolset', mcp_server_name: 'docs' }),
  // OpenRouter's Messages API takes its own server tools too (openrouter:web_search, :web_fetch, :advisor …)
  provider('openrouter:<tool>', 'an OpenRouter server tool', (t) => t.startsWith('openrouter:'), { type: 'openrouter:web_search' }, { type: 'openrouter:web_fetch' }),
];

/** Request fields that make Anthropic connect to or run something for the request. */
export const ANTHROPIC_FIELDS: readonly FieldRule[] = [
  { field: 'mcp_servers', action: 'strip', does: 'hosted MCP servers the provider connects to', example: [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'docs' }] },
  { field: 'container', action: 'strip', does: 'a provider code-execution container (and its skills)', example: 'container_011CPR5CNjB747bTd36fQLFk' },
];

/** Inputs Anthropic would fetch or read from its own storage. */
export const ANTHROPIC_INPUTS: readonly InputRule[] = [
  {
    name: 'image or document from a URL',
    find: (b) => (isRecord(b.source) && b.source.type === 'url' ? `${typeof b.type === 'string' ? b.type : 'content'} from a URL (${shortUrl(String(b.source.url))})` : null),
    example: { type: 'image', source: { type: 'url', url: 'https://upload.wikimedia.org/example.png' } },
  },
  {
    name: 'a stored file (Files API)',
    find: (b) => (isRecord(b.source) && b.source.type === 'file' ? `stored file ${String(b.source.file_id)}` : null),
    example: { type: 'document', source: { type: 'file', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' } },
  },
  {
    name: 'a stored file put into a code-execution container',
    find: (b) => (b.type === 'container_upload' ? `stored file ${String(b.file_id)} into a container` : null),
    example: { type: 'container_upload', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' },
  },
];

/** Content block types by which an answer shows that a provider tool ran. */
const USED_BLOCK = (type: string): boolean => type === 'server_tool_use' || type === 'mcp_tool_use' || (type.endsWith('_tool_result') && type !== 'tool_result');
const TOOL_USE_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

export const anthropicMessagesPolicy: FormatPolicy = {
  tools: ANTHROPIC_TOOLS,
  fields: ANTHROPIC_FIELDS,
  inputs: ANTHROPIC_INPUTS,
  inspect(body): Inspection {
    const out: Record<string, unknown> = { ...body };
    const items: PolicyItem[] = [];
    let refusal: string | null = null;
    if (Array.isArray(body.tools)) {
      const sorted = sortTools(body.tools, 'tools', ANTHROPIC_TOOLS, (t) => (typeof t.type === 'string' ? t.type : null));
      out.tools = sorted.kept;
      items.push(...sorted.items);
      refusal = sorted.refusal;
      const choice = body.tool_choice;
      if (isRecord(choice) && choice.type === 'tool' && typeof choice.name === 'string' && sorted.stripped.has(choice.name)) {
        items.push({ what: `tool_choice forcing ${choice.name}`, where: 'tool_choice', action: 'refused' });
        refusal ??= `tool_choice forces ${JSON.stringify(choice.name)}, a tool the provider runs`;
      }
    }
    refusal ??= sortFields(body, out, ANTHROPIC_FIELDS, items);
    const inputs = ['system', 'messages'].flatMap((key) => findInputs(body[key], key, ANTHROPIC_INPUTS, (k, parent) => k === 'input' && TOOL_USE_BLOCKS.has(String(parent.type))));
    return inspected(body, out, items, refusal, inputs);
  },
  usedTools(payload) {
    if (!isRecord(payload)) return [];
    const signs: string[] = [];
    const message = isRecord(payload.message) ? payload.message : payload;
    for (const usage of [message.usage, payload.usage]) {
      if (!isRecord(usage) || !isRecord(usage.server_tool_use)) continue;
      for (const [key, count] of Object.entries(usage.server_tool_use)) {
        if (typeof count === 'number' && count > 0) signs.push(`usage.server_tool_use.${key} ${count}`);
      }
    }
    const blocks = [...(Array.isArray(message.content) ? message.content : []), payload.content_block];
    for (const block of blocks) {
      if (isRecord(block) && typeof block.type === 'string' && USED_BLOCK(block.type)) signs.push(`content block ${block.type}${typeof block.name === 'string' ? ` ${block.name}` : ''}`);
    }
    if (isRecord(message.container)) signs.push('a code-execution container');
    return [...new Set(signs)];
  },
};
