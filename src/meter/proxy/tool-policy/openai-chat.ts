import { findInputs, inspected, isRecord, isRemote, shortUrl, sortFields, sortTools } from './inspect-parts.js';
import type { FieldRule, FormatPolicy, InputRule, Inspection, PolicyItem, ToolRule } from './types.js';

/*
 * Chat Completions (`POST …/chat/completions`): OpenAI's (2026-11 API reference; openai-node
 * 6.26.0), and the compatible APIs bakeoff relays to (OpenRouter's server tools and plugins,
 * Groq's built-in `browser_search` / `code_interpreter`, xAI's `search_parameters`). Function
 * and custom tools are the caller's; everything else in `tools` runs on the provider.
 */

const provider = (name: string, does: string, match: (t: string) => boolean, ...examples: Record<string, unknown>[]): ToolRule => ({
  name, runs: 'provider', does, matches: match, examples,
});

/** Every tool type Chat Completions (and the compatible APIs) take, and who runs it. */
export const CHAT_TOOLS: readonly ToolRule[] = [
  { name: 'function', runs: 'client', does: 'a function tool of the harness', matches: (t) => t === 'function', examples: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }] },
  { name: 'custom', runs: 'client', does: 'a free-text tool of the harness', matches: (t) => t === 'custom', examples: [{ type: 'custom', custom: { name: 'apply_patch' } }] },
  provider('openrouter:<tool>', 'an OpenRouter server tool', (t) => t.startsWith('openrouter:'), { type: 'openrouter:web_search' }, { type: 'openrouter:web_fetch' }, { type: 'openrouter:advisor' }),
  provider('web_search / web_search_preview / browser_search', 'web search', (t) => /^(web_search(_preview)?(_\d{4}_\d{2}_\d{2})?|browser_search|live_search)$/.test(t),
    { type: 'web_search' }, { type: 'web_search_preview' }, { type: 'browser_search' }, { type: 'live_search' }),
  provider('code_interpreter', 'code execution on the provider', (t) => t === 'code_interpreter', { type: 'code_interpreter' }),
  provider('file_search / mcp / image_generation', 'stored files, hosted MCP or image generation on the provider', (t) => ['file_search', 'mcp', 'image_generation'].includes(t),
    { type: 'file_search' }, { type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example.com' }, { type: 'image_generation' }),
];

/** Request fields that turn on the provider's own search or plugins. */
export const CHAT_FIELDS: readonly FieldRule[] = [
  { field: 'web_search_options', action: 'strip', does: 'web search of the search models', example: { search_context_size: 'medium' } },
  { field: 'plugins', action: 'strip', does: 'OpenRouter plugins (web search among them)', example: [{ id: 'web', max_results: 5 }] },
  { field: 'search_parameters', action: 'strip', does: 'xAI Live Search', example: { mode: 'auto' } },
];

/** Inputs a Chat Completions provider would fetch or read from its own storage. */
export const CHAT_INPUTS: readonly InputRule[] = [
  {
    name: 'image_url part with a URL',
    find: (p) => (p.type === 'image_url' && isRecord(p.image_url) && isRemote(p.image_url.url) ? `image from a URL (${shortUrl(p.image_url.url)})` : null),
    example: { type: 'image_url', image_url: { url: 'https://upload.wikimedia.org/example.png' } },
  },
  {
    name: 'file part with a stored file or a URL',
    find: (p) => {
      if (p.type !== 'file' || !isRecord(p.file)) return null;
      if (typeof p.file.file_id === 'string' && p.file.file_id !== '') return `stored file ${p.file.file_id}`;
      return typeof p.file.file_data === 'string' && /^\s*https?:/i.test(p.file.file_data) ? `file from a URL (${shortUrl(p.file.file_data)})` : null;
    },
    example: { type: 'file', file: { file_id: 'file-6F2ksmvXxt4VdoqmHRw6kL' } },
  },
  {
    name: 'video_url or audio part with a URL',
    find: (p) => (p.type === 'video_url' && isRecord(p.video_url) && isRemote(p.video_url.url) ? `video from a URL (${shortUrl(p.video_url.url)})` : null),
    example: { type: 'video_url', video_url: { url: 'https://example.com/clip.mp4' } },
  },
];

const CITATIONS = new Set(['url_citation', 'file_citation']);

export const openaiChatPolicy: FormatPolicy = {
  tools: CHAT_TOOLS,
  fields: CHAT_FIELDS,
  inputs: CHAT_INPUTS,
  inspect(body): Inspection {
    const out: Record<string, unknown> = { ...body };
    const items: PolicyItem[] = [];
    let refusal: string | null = null;
    if (Array.isArray(body.tools)) {
      const sorted = sortTools(body.tools, 'tools', CHAT_TOOLS, (t) => (typeof t.type === 'string' ? t.type : 'function'));
      out.tools = sorted.kept;
      items.push(...sorted.items);
      refusal = sorted.refusal;
    }
    const choice = body.tool_choice;
    if (isRecord(choice) && typeof choice.type === 'string' && !['function', 'custom', 'allowed_tools'].includes(choice.type)) {
      items.push({ what: `tool_choice forcing ${choice.type}`, where: 'tool_choice', action: 'refused' });
      refusal ??= `tool_choice forces ${choice.type}, which is not a function tool of the harness`;
    }
    refusal ??= sortFields(body, out, CHAT_FIELDS, items);
    return inspected(body, out, items, refusal, findInputs(body.messages, 'messages', CHAT_INPUTS, (key) => key === 'tool_calls' || key === 'function_call'));
  },
  usedTools(payload) {
    if (!isRecord(payload)) return [];
    const signs: string[] = [];
    for (const choice of Array.isArray(payload.choices) ? payload.choices : []) {
      if (!isRecord(choice)) continue;
      for (const message of [choice.message, choice.delta]) {
        if (!isRecord(message)) continue;
        for (const note of Array.isArray(message.annotations) ? message.annotations : []) {
          if (isRecord(note) && CITATIONS.has(String(note.type))) signs.push(`annotation ${String(note.type)}`);
        }
        if (Array.isArray(message.executed_tools) && message.executed_tools.length > 0) signs.push('executed_tools');
      }
    }
    for (const key of ['citations', 'search_results']) {
      if (Array.isArray(payload[key]) && (payload[key] as unknown[]).length > 0) signs.push(key);
    }
    const usage = payload.usage;
    if (isRecord(usage)) {
      for (const [key, count] of Object.entries(isRecord(usage.server_tool_use) ? usage.server_tool_use : {})) {
        if (typeof count === 'number' && count > 0) signs.push(`usage.server_tool_use.${key} ${count}`);
      }
      if (typeof usage.num_search_queries === 'number' && usage.num_search_queries > 0) signs.push(`usage.num_search_queries ${usage.num_search_queries}`);
    }
    return [...new Set(signs)];
  },
};
