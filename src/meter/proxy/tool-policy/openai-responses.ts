import { findInputs, inspected, isRecord, isRemote, shortUrl, sortFields, sortTools } from './inspect-parts.js';
import type { FieldRule, FormatPolicy, InputRule, Inspection, PolicyItem, ToolRule } from './types.js';

/*
 * OpenAI Responses (`POST /v1/responses`, `/responses/compact`, `/responses/input_tokens`) and
 * the ChatGPT/Codex backend (`/backend-api/codex/responses`, the same shape), as the API
 * reference lists it (2026-11: developers.openai.com tools guides; openai-node 6.26.0 `Tool`,
 * `ToolChoiceTypes`). Function, custom, local shell, apply_patch and computer use are executed
 * by the caller; web search, file search, code interpreter, image generation, hosted MCP, a
 * hosted shell container and server-side tool search run on OpenAI's servers.
 */

const isHostedShell = (tool: Readonly<Record<string, unknown>>): boolean => isRecord(tool.environment) && tool.environment.type !== 'local';
const isServerSearch = (tool: Readonly<Record<string, unknown>>): boolean => tool.execution !== 'client';
const onlyFunctions = (tool: Readonly<Record<string, unknown>>): boolean =>
  Array.isArray(tool.tools) && tool.tools.every((t) => isRecord(t) && (t.type === 'function' || t.type === 'custom'));

/** Every tool type of the Responses API, and who runs it. */
export const RESPONSES_TOOLS: readonly ToolRule[] = [
  { name: 'function', runs: 'client', does: 'a function tool of the harness', matches: (t) => t === 'function', examples: [{ type: 'function', name: 'exec_command', parameters: { type: 'object' } }] },
  { name: 'custom', runs: 'client', does: 'a free-text tool of the harness', matches: (t) => t === 'custom', examples: [{ type: 'custom', name: 'apply_patch' }] },
  { name: 'local_shell', runs: 'client', does: 'a shell, run by the harness', matches: (t) => t === 'local_shell', examples: [{ type: 'local_shell' }] },
  { name: 'shell (local environment)', runs: 'client', does: 'a shell, run by the harness', matches: (t, tool) => t === 'shell' && !isHostedShell(tool), examples: [{ type: 'shell' }, { type: 'shell', environment: { type: 'local' } }] },
  { name: 'apply_patch', runs: 'client', does: 'file patches, applied by the harness', matches: (t) => t === 'apply_patch', examples: [{ type: 'apply_patch' }] },
  { name: 'computer_use_preview / computer', runs: 'client', does: 'computer use, run by the harness', matches: (t) => t === 'computer_use_preview' || t === 'computer' || t === 'computer_use', examples: [{ type: 'computer_use_preview', display_width: 1024, display_height: 768, environment: 'linux' }, { type: 'computer' }] },
  { name: 'tool_search (client execution)', runs: 'client', does: 'tool search, run by the harness', matches: (t, tool) => t === 'tool_search' && !isServerSearch(tool), examples: [{ type: 'tool_search', execution: 'client', parameters: { type: 'object' } }] },
  { name: 'namespace (of function tools)', runs: 'client', does: 'a group of function tools', matches: (t, tool) => t === 'namespace' && onlyFunctions(tool), examples: [{ type: 'namespace', name: 'files', tools: [{ type: 'function', name: 'read' }] }] },
  { name: 'web_search / web_search_preview (dated too)', runs: 'provider', does: 'web search', matches: (t) => /^web_search(_preview)?(_\d{4}_\d{2}_\d{2})?$/.test(t),
    examples: [{ type: 'web_search', external_web_access: true, search_content_types: ['text', 'image'] }, { type: 'web_search', external_web_access: false }, { type: 'web_search_2025_08_26' }, { type: 'web_search_preview' }, { type: 'web_search_preview_2025_03_11' }] },
  { name: 'file_search', runs: 'provider', does: 'search of stored vector stores', matches: (t) => t === 'file_search', examples: [{ type: 'file_search', vector_store_ids: ['vs_1234567890'] }] },
  { name: 'code_interpreter', runs: 'provider', does: 'code execution in a provider container', matches: (t) => t === 'code_interpreter', examples: [{ type: 'code_interpreter', container: { type: 'auto' } }] },
  { name: 'image_generation', runs: 'provider', does: 'image generation on the provider', matches: (t) => t === 'image_generation', examples: [{ type: 'image_generation' }] },
  { name: 'mcp', runs: 'provider', does: 'tools of a hosted MCP server or connector', matches: (t) => t === 'mcp', examples: [{ type: 'mcp', server_label: 'deepwiki', server_url: 'https://mcp.deepwiki.com/mcp' }, { type: 'mcp', server_label: 'drive', connector_id: 'connector_googledrive' }] },
  { name: 'shell (hosted container)', runs: 'provider', does: 'a shell in a provider container', matches: (t, tool) => t === 'shell' && isHostedShell(tool), examples: [{ type: 'shell', environment: { type: 'container_auto' } }, { type: 'shell', environment: { type: 'container_reference', container_id: 'cntr_123' } }] },
  { name: 'tool_search (server execution)', runs: 'provider', does: 'tool search on the provider', matches: (t, tool) => t === 'tool_search' && isServerSearch(tool), examples: [{ type: 'tool_search' }, { type: 'tool_search', execution: 'server' }] },
  { name: 'namespace (holding provider tools)', runs: 'provider', does: 'a group holding provider tools', matches: (t, tool) => t === 'namespace' && !onlyFunctions(tool), examples: [{ type: 'namespace', name: 'web', tools: [{ type: 'web_search' }] }] },
  { name: 'openrouter:<tool>', runs: 'provider', does: 'an OpenRouter server tool', matches: (t) => t.startsWith('openrouter:'), examples: [{ type: 'openrouter:web_search' }, { type: 'openrouter:web_fetch' }] },
];

/** Request fields that bring in what the request does not show, or make the provider run something. */
export const RESPONSES_FIELDS: readonly FieldRule[] = [
  { field: 'prompt', action: 'refuse', does: 'a stored prompt (its tools and inputs are not in the request)', example: { id: 'pmpt_abc123', version: '2' } },
  { field: 'plugins', action: 'strip', does: 'OpenRouter plugins (web search among them)', example: [{ id: 'web', max_results: 5 }] },
];

/** Inputs the Responses API would fetch or read from its own storage. */
export const RESPONSES_INPUTS: readonly InputRule[] = [
  {
    name: 'input_image from a URL or a stored file',
    find: (p) => (p.type === 'input_image' ? (isRemote(p.image_url) ? `image from a URL (${shortUrl(p.image_url)})` : typeof p.file_id === 'string' && p.file_id !== '' ? `stored file ${p.file_id}` : null) : null),
    example: { type: 'input_image', image_url: 'https://upload.wikimedia.org/example.png', detail: 'auto' },
  },
  {
    name: 'input_file from a URL or a stored file',
    find: (p) => {
      if (p.type !== 'input_file') return null;
      if (isRemote(p.file_url)) return `file from a URL (${shortUrl(p.file_url)})`;
      if (typeof p.file_id === 'string' && p.file_id !== '') return `stored file ${p.file_id}`;
      return typeof p.file_data === 'string' && /^\s*https?:/i.test(p.file_data) ? `file from a URL (${shortUrl(p.file_data)})` : null;
    },
    example: { type: 'input_file', file_url: 'https://www.berkshirehathaway.com/letters/2024ltr.pdf' },
  },
];

/** Output item types by which an answer shows that a provider tool ran. */
const USED_ITEMS = new Set(['web_search_call', 'file_search_call', 'code_interpreter_call', 'image_generation_call', 'mcp_call', 'mcp_list_tools', 'mcp_approval_request', 'shell_call_output']);
const USED_EVENT = /^response\.(web_search_call|file_search_call|code_interpreter_call|image_generation_call|mcp_call|mcp_list_tools)\./;
const USED_ANNOTATIONS = new Set(['url_citation', 'file_citation', 'container_file_citation']);

export const openaiResponsesPolicy: FormatPolicy = {
  tools: RESPONSES_TOOLS,
  fields: RESPONSES_FIELDS,
  inputs: RESPONSES_INPUTS,
  inspect(body): Inspection {
    const out: Record<string, unknown> = { ...body };
    const items: PolicyItem[] = [];
    let refusal: string | null = null;
    let stripped = new Set<string>();
    if (Array.isArray(body.tools)) {
      const sorted = sortTools(body.tools, 'tools', RESPONSES_TOOLS, (t) => (typeof t.type === 'string' ? t.type : 'function'));
      out.tools = sorted.kept;
      items.push(...sorted.items);
      refusal = sorted.refusal;
      stripped = sorted.stripped;
    }
    const choice = inspectChoice(body.tool_choice, stripped);
    items.push(...choice.items);
    refusal ??= choice.refusal;
    if (choice.value !== undefined) out.tool_choice = choice.value;
    refusal ??= sortFields(body, out, RESPONSES_FIELDS, items);
    return inspected(body, out, items, refusal, findInputs(body.input, 'input', RESPONSES_INPUTS, () => false));
  },
  usedTools(payload) {
    if (!isRecord(payload)) return [];
    const signs: string[] = [];
    if (typeof payload.type === 'string' && USED_EVENT.test(payload.type)) signs.push(`event ${payload.type.replace(/\.[a-z_]+$/, '')}`);
    const response = isRecord(payload.response) ? payload.response : payload;
    const outputs = [...(Array.isArray(response.output) ? response.output : []), payload.item];
    for (const item of outputs) {
      if (!isRecord(item) || typeof item.type !== 'string') continue;
      if (USED_ITEMS.has(item.type) || (item.type === 'tool_search_call' && item.execution === 'server')) signs.push(`output item ${item.type}`);
      for (const part of Array.isArray(item.content) ? item.content : []) {
        for (const note of isRecord(part) && Array.isArray(part.annotations) ? part.annotations : []) {
          if (isRecord(note) && USED_ANNOTATIONS.has(String(note.type))) signs.push(`annotation ${String(note.type)}`);
        }
      }
    }
    if (isRecord(payload.annotation) && USED_ANNOTATIONS.has(String(payload.annotation.type))) signs.push(`annotation ${String(payload.annotation.type)}`);
    return [...new Set(signs)];
  },
};

/**
 * `tool_choice`: a choice forcing a provider tool (`{type: "web_search_preview"}`, `{type:
 * "mcp"}`, a stripped tool's name or type) is refused; an `allowed_tools` list loses its
 * provider entries, and is refused when none is left. Strings (`auto`, `required`, `none`) and
 * client tools pass.
 */
function inspectChoice(choice: unknown, stripped: ReadonlySet<string>): { items: PolicyItem[]; refusal: string | null; value?: unknown } {
  if (!isRecord(choice) || typeof choice.type !== 'string') return { items: [], refusal: null };
  const refuse = (what: string): { items: PolicyItem[]; refusal: string } => ({
    items: [{ what: `tool_choice forcing ${what}`, where: 'tool_choice', action: 'refused' }],
    refusal: `tool_choice forces ${what}, a tool the provider runs`,
  });
  if (choice.type === 'allowed_tools') {
    const listed = Array.isArray(choice.tools) ? choice.tools : [];
    const sorted = sortTools(listed, 'tool_choice.tools', RESPONSES_TOOLS, (t) => (typeof t.type === 'string' ? t.type : 'function'));
    const kept = sorted.kept.filter((t) => !(isRecord(t) && typeof t.name === 'string' && stripped.has(t.name)));
    if (sorted.refusal !== null) return { items: sorted.items, refusal: sorted.refusal };
    if (kept.length === 0 && listed.length > 0) return refuse('only tools the provider runs (allowed_tools)');
    return kept.length === listed.length ? { items: [], refusal: null } : { items: sorted.items, refusal: null, value: { ...choice, tools: kept } };
  }
  if (typeof choice.name === 'string' && stripped.has(choice.name)) return refuse(choice.name);
  if (stripped.has(choice.type)) return refuse(choice.type);
  const rule = RESPONSES_TOOLS.find((r) => r.matches(choice.type as string, choice));
  if (rule === undefined) return refuse(`the unknown tool type ${choice.type}`);
  return rule.runs === 'provider' ? refuse(choice.type) : { items: [], refusal: null };
}
