import { findInputs, isRecord, shortUrl } from './inspect-parts.js';
import type { FieldRule, FormatPolicy, InputRule, Inspection, PolicyItem, ToolRule } from './types.js';

/*
 * Gemini `generateContent` / `streamGenerateContent` (and `countTokens`, whose
 * `generateContentRequest` is the same body), as the API reference lists it (2026-11:
 * ai.google.dev "Using tools"; @google/genai 1.52.0 `Tool`). A `Tool` is an object whose one key
 * names the tool: `functionDeclarations` are the caller's functions and `computerUse` is
 * executed by the caller; every other key is a tool Google runs. The REST API takes each field
 * in lowerCamelCase or snake_case (`google_search`, `file_data`): both are read.
 */

/** lowerCamelCase of a key: the API's two spellings of a field compare equal after this. */
export function camel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const key = (name: string, runs: ToolRule['runs'], does: string, value: unknown = {}): ToolRule => ({
  name, runs, does, matches: (type) => camel(type) === name, examples: [{ [name]: value }],
});

/** Every key of a Gemini `Tool`, and who runs it. */
export const GEMINI_TOOLS: readonly ToolRule[] = [
  key('functionDeclarations', 'client', 'function tools of the harness', [{ name: 'run_shell_command', parameters: { type: 'OBJECT' } }]),
  key('computerUse', 'client', 'computer use, run by the harness', { environment: 'ENVIRONMENT_BROWSER' }),
  key('googleSearch', 'provider', 'Google Search grounding'),
  key('googleSearchRetrieval', 'provider', 'Google Search retrieval (older models)', { dynamicRetrievalConfig: { mode: 'MODE_DYNAMIC' } }),
  key('urlContext', 'provider', 'fetches the URLs in the prompt'),
  key('codeExecution', 'provider', 'code execution on the provider'),
  key('googleMaps', 'provider', 'Google Maps grounding'),
  key('fileSearch', 'provider', 'search of stored file search stores', { fileSearchStoreNames: ['fileSearchStores/abc'] }),
  key('enterpriseWebSearch', 'provider', 'web search (Vertex AI)'),
  key('retrieval', 'provider', 'retrieval from a data store (Vertex AI)', { vertexAiSearch: { datastore: 'projects/p/locations/l/collections/c/dataStores/d' } }),
  key('parallelAiSearch', 'provider', 'web search (Parallel)'),
  key('mcpServers', 'provider', 'tools of hosted MCP servers', [{ name: 'docs', streamableHttpTransport: { url: 'https://mcp.example.com' } }]),
];

/** Request fields that bring in what the request does not show. */
export const GEMINI_FIELDS: readonly FieldRule[] = [
  { field: 'cachedContent', action: 'refuse', does: 'stored content (its tools and files are not in the request)', example: 'cachedContents/lc8hk5tbwx5o' },
];

/** Inputs Gemini would fetch or read from its own storage. */
export const GEMINI_INPUTS: readonly InputRule[] = [
  {
    name: 'fileData (a Files API file, a gs:// or an http(s) URI)',
    find: (p) => {
      const entry = Object.entries(p).find(([k]) => camel(k) === 'fileData');
      if (entry === undefined) return null;
      const data = entry[1];
      const uri = isRecord(data) ? Object.entries(data).find(([k]) => camel(k) === 'fileUri')?.[1] : undefined;
      return `file by URI (${typeof uri === 'string' ? shortUrl(uri) : 'no uri'})`;
    },
    example: { fileData: { mimeType: 'application/pdf', fileUri: 'https://discovery.ucl.ac.uk/id/eprint/10089234/1/343019_3_art_0_py4t4l_convrt.pdf' } },
  },
];

export const geminiGeneratePolicy: FormatPolicy = {
  tools: GEMINI_TOOLS,
  fields: GEMINI_FIELDS,
  inputs: GEMINI_INPUTS,
  inspect(body): Inspection {
    const out: Record<string, unknown> = { ...body };
    const items: PolicyItem[] = [];
    let refusal: string | null = null;
    for (const [field, value] of Object.entries(body)) {
      const name = camel(field);
      if (name === 'tools' && Array.isArray(value)) {
        const sorted = sortGeminiTools(value, field);
        out[field] = sorted.kept;
        items.push(...sorted.items);
        refusal ??= sorted.refusal;
      } else if (name === 'generateContentRequest' && isRecord(value)) {
        // countTokens: the request it counts
        const inner = geminiGeneratePolicy.inspect(value);
        out[field] = inner.body;
        items.push(...inner.items.map((i) => ({ ...i, where: `${field}.${i.where}` })));
        refusal ??= inner.refusal;
      } else if (GEMINI_FIELDS.some((r) => r.field === name) && value !== null && value !== undefined && value !== '') {
        const rule = GEMINI_FIELDS.find((r) => r.field === name)!;
        items.push({ what: `field ${name} (${rule.does})`, where: field, action: 'refused' });
        refusal ??= `${field} is ${rule.does}`;
      } else if (name === 'contents' || name === 'systemInstruction') {
        const inputs = findInputs(value, field, GEMINI_INPUTS, (k) => ['args', 'response'].includes(camel(k)));
        items.push(...inputs);
        if (inputs[0]) refusal ??= `${inputs[0].where} is a ${inputs[0].what}: the provider would fetch it`;
      }
    }
    return { body: items.some((i) => i.action === 'stripped') ? out : (body as Record<string, unknown>), items, refusal };
  },
  usedTools(payload) {
    const signs: string[] = [];
    for (const response of Array.isArray(payload) ? payload : [payload]) {
      if (!isRecord(response)) continue;
      (Array.isArray(response.candidates) ? response.candidates : []).forEach((candidate, i) => {
        if (!isRecord(candidate)) return;
        for (const [k, v] of Object.entries(candidate)) {
          if (['groundingMetadata', 'urlContextMetadata'].includes(camel(k)) && isRecord(v) && Object.keys(v).length > 0) signs.push(`candidates[${i}].${camel(k)}`);
        }
        const parts = isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
        for (const part of parts) {
          for (const k of isRecord(part) ? Object.keys(part) : []) {
            if (['executableCode', 'codeExecutionResult', 'toolCall', 'toolResponse'].includes(camel(k))) signs.push(`part ${camel(k)}`);
          }
        }
      });
      const usage = Object.entries(response).find(([k]) => camel(k) === 'usageMetadata')?.[1];
      const toolTokens = isRecord(usage) ? Object.entries(usage).find(([k]) => camel(k) === 'toolUsePromptTokenCount')?.[1] : undefined;
      if (typeof toolTokens === 'number' && toolTokens > 0) signs.push(`usageMetadata.toolUsePromptTokenCount ${toolTokens}`);
    }
    return [...new Set(signs)];
  },
};

/** Each `Tool` object keeps its client keys; provider keys are stripped, unknown keys refused; a `Tool` left empty goes. */
function sortGeminiTools(tools: readonly unknown[], where: string): { kept: unknown[]; items: PolicyItem[]; refusal: string | null } {
  const kept: unknown[] = [];
  const items: PolicyItem[] = [];
  let refusal: string | null = null;
  tools.forEach((tool, i) => {
    if (!isRecord(tool)) return void kept.push(tool);
    const keep: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(tool)) {
      const at = `${where}[${i}].${k}`;
      const rule = GEMINI_TOOLS.find((r) => r.matches(k, tool));
      if (rule?.runs === 'client') keep[k] = v;
      else if (rule === undefined) {
        items.push({ what: `unknown tool ${k}`, where: at, action: 'refused' });
        refusal ??= `${at} declares the tool ${JSON.stringify(k)}, which bakeoff's tool table does not know; an unknown tool may run on the provider's servers, so it is not relayed`;
      } else items.push({ what: `tool ${camel(k)} (${rule.does})`, where: at, action: 'stripped' });
    }
    if (Object.keys(keep).length > 0) kept.push(keep);
  });
  return { kept, items, refusal };
}
