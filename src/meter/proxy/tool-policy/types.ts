/**
 * The closed-web tool policy's vocabulary (decision 013). A model request may ask the provider
 * to run a tool on its own servers (web search, web fetch, code execution, hosted MCP, file
 * search …) or to fetch an input from a URL: that is network the agent reaches through the
 * model API. The policy withholds all of it before a request is relayed and records each item.
 */

import type { ToolPolicyItem } from '../../../types.js';

/**
 * One withheld, refused or (open web) allowed item of a request, as stored with it.
 * - `stripped`: a declaration the provider would run was removed; the rest was relayed.
 * - `refused`: the request was answered with a 4xx in its wire format's error shape and never
 *   relayed (it forced a withheld tool, referenced a URL or stored file, named an unknown tool
 *   type or a model that searches by itself, or called an endpoint that is not generation).
 * - `allowed`: open web (`network: model-api+web`) let it through; recorded all the same.
 */
export type PolicyItem = ToolPolicyItem;

/** Who runs a tool: the harness in the sandbox (allowed), or the provider on its servers (withheld). */
export type ToolRunner = 'client' | 'provider';

/** One entry of a wire format's tool table: a family of tool declarations. */
export interface ToolRule {
  /** The table's name for it, as the vendor spells it (`web_search_<date>`, `googleSearch`). */
  readonly name: string;
  readonly runs: ToolRunner;
  /** What it does, in a few words (`web search`, `bash, run by the harness`). */
  readonly does: string;
  /** Whether a declaration's type (Gemini: its key) belongs to this family; `tool` is the whole declaration. */
  matches(type: string, tool: Readonly<Record<string, unknown>>): boolean;
  /** Declarations of this family as the vendor documents them: each is a unit test of the table. */
  readonly examples: readonly Readonly<Record<string, unknown>>[];
}

/** One entry of a wire format's table of request fields that make the provider fetch or run something. */
export interface FieldRule {
  /** The field's path in the body (`mcp_servers`, `web_search_options`, `cachedContent`). */
  readonly field: string;
  /** `strip`: a declaration, removed; `refuse`: it brings in what the request does not show, so the request is refused. */
  readonly action: 'strip' | 'refuse';
  readonly does: string;
  /** A value of the field that the rule applies to (a unit test). */
  readonly example: unknown;
}

/** One entry of a wire format's table of inputs the provider would fetch (a URL, a stored file). */
export interface InputRule {
  readonly name: string;
  /** What the input is when `node` is one (`image from a URL (https://…)`), else null. */
  find(node: Readonly<Record<string, unknown>>): string | null;
  /** A content part or block of this kind (a unit test). */
  readonly example: Readonly<Record<string, unknown>>;
}

/** What one wire format's policy found in a request body. */
export interface Inspection {
  /** The body to relay: a copy without the stripped declarations, or the same object when nothing was stripped. */
  readonly body: Record<string, unknown>;
  readonly items: PolicyItem[];
  /** Why the request must be refused (the first reason), or null. */
  readonly refusal: string | null;
}

/** One wire format's policy: its tables (for the docs, the methodology page and the tests) and how it inspects a body. */
export interface FormatPolicy {
  readonly tools: readonly ToolRule[];
  readonly fields: readonly FieldRule[];
  readonly inputs: readonly InputRule[];
  /** Inspects a parsed request body; never mutates it. Items are `stripped` or `refused` (the caller turns them to `allowed` on the open web). */
  inspect(body: Readonly<Record<string, unknown>>): Inspection;
  /**
   * Signs, in one payload of a response (a JSON body or one SSE event), that the provider ran a
   * tool: `usage.server_tool_use.web_search_requests 2`, `output item web_search_call`,
   * `candidates[0].groundingMetadata`. Empty when there are none.
   */
  usedTools(payload: unknown): string[];
}
