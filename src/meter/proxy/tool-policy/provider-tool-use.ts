import type { WireFormat } from '../../types.js';
import { readPayloads } from '../../usage/read-payloads.js';
import { TOOL_POLICIES } from './tool-policies.js';

/** Words without which a body cannot show provider tool use, per format: most answers are never parsed a second time. */
const MAYBE: Readonly<Record<WireFormat, RegExp>> = {
  'anthropic-messages': /server_tool_use|mcp_tool_use|[a-z]_tool_result|"container"\s*:\s*\{/,
  'openai-responses': /(web_search|file_search|code_interpreter|image_generation|tool_search)_call|mcp_(call|list_tools|approval)|shell_call_output|_citation/,
  'openai-chat': /_citation|executed_tools|"citations"|search_results|server_tool_use|num_search_queries/,
  'gemini-generate': /grounding_?metadata|url_?context_?metadata|executable_?code|code_?execution_?result|tool_?use_?prompt_?token_?count|tool_?call|tool_?response/i,
};

/**
 * Signs in a response body that the provider ran a tool for the request (server-tool usage
 * counters, search-call items, citations of fetched URLs, grounding metadata, executed code):
 * on the closed web this means the policy failed and the run is void `provider-tool-used`. At
 * most 20 signs, each once. Pure; never throws.
 */
export function providerToolUseOf(format: WireFormat, body: string, streamed: boolean): string[] {
  if (!MAYBE[format].test(body)) return [];
  try {
    const signs = new Set<string>();
    for (const payload of readPayloads(body, streamed).payloads) {
      for (const sign of TOOL_POLICIES[format].usedTools(payload.data)) signs.add(sign);
    }
    return [...signs].slice(0, 20);
  } catch (error) {
    return [`the response could not be checked for provider tool use: ${String(error)}`];
  }
}
