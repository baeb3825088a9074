import type { WireFormat } from '../../types.js';
import { SEARCH_MODELS, TOOL_POLICIES } from './tool-policies.js';

/** The API each wire format is, as a page names it. */
const API_NAMES: Readonly<Record<WireFormat, string>> = {
  'anthropic-messages': 'Anthropic Messages',
  'openai-responses': 'OpenAI Responses and the ChatGPT/Codex backend',
  'openai-chat': 'Chat Completions',
  'gemini-generate': 'Gemini generateContent',
};

/** What the closed web withholds from one API: its provider tools, its request fields, its fetched inputs. */
export interface ToolPolicySummary {
  readonly api: string;
  /** Provider-run tool families, each `name (what it does)`. */
  readonly tools: readonly string[];
  /** Request fields stripped or refused. */
  readonly fields: readonly string[];
  /** Inputs the provider would fetch. */
  readonly inputs: readonly string[];
}

/** The closed-web policy in words, per API, from the tables themselves (the methodology page, the docs). */
export function describeToolPolicy(): { readonly apis: readonly ToolPolicySummary[]; readonly searchModels: readonly string[] } {
  const apis = (Object.keys(TOOL_POLICIES) as WireFormat[]).map((format) => {
    const policy = TOOL_POLICIES[format];
    return {
      api: API_NAMES[format],
      tools: policy.tools.filter((r) => r.runs === 'provider').map((r) => `${r.name} (${r.does})`),
      fields: policy.fields.map((r) => r.field),
      inputs: policy.inputs.map((r) => r.name),
    };
  });
  return { apis, searchModels: SEARCH_MODELS.map((r) => r.name) };
}
