import type { FieldRule, InputRule, Inspection, PolicyItem, ToolRule } from './types.js';

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A matcher for a versioned type family: `prefix` then an 8-digit date (`web_search_20250305`). */
export function dated(prefix: string): (type: string) => boolean {
  const pattern = new RegExp(`^${prefix}\\d{8}$`);
  return (type) => pattern.test(type);
}

/** What a list of tool declarations came to: the declarations kept, and what was stripped or refused. */
export interface SortedTools {
  readonly kept: unknown[];
  readonly items: PolicyItem[];
  /** The names (and types) of the stripped declarations, for a `tool_choice` that names one. */
  readonly stripped: Set<string>;
  readonly refusal: string | null;
}

/**
 * Sorts tool declarations by the table: a client tool is kept, a provider tool is stripped, a
 * declaration no entry knows is refused (the vendors add a tool type every month; an unknown
 * one is never relayed). `typeOf` reads a declaration's type, or null for a plain function tool.
 */
export function sortTools(
  list: readonly unknown[],
  where: string,
  rules: readonly ToolRule[],
  typeOf: (tool: Readonly<Record<string, unknown>>) => string | null,
): SortedTools {
  const kept: unknown[] = [];
  const items: PolicyItem[] = [];
  const stripped = new Set<string>();
  let refusal: string | null = null;
  list.forEach((tool, i) => {
    const at = `${where}[${i}]`;
    if (!isRecord(tool)) {
      kept.push(tool);
      return;
    }
    const type = typeOf(tool);
    if (type === null) {
      kept.push(tool);
      return;
    }
    const rule = rules.find((r) => r.matches(type, tool));
    if (rule?.runs === 'client') {
      kept.push(tool);
      return;
    }
    if (rule === undefined) {
      items.push({ what: `unknown tool type ${type}`, where: at, action: 'refused' });
      refusal ??= `${at} declares the tool type ${JSON.stringify(type)}, which bakeoff's tool table does not know; an unknown tool may run on the provider's servers, so it is not relayed`;
      return;
    }
    items.push({ what: `tool ${type} (${rule.does})`, where: at, action: 'stripped' });
    stripped.add(type);
    if (typeof tool.name === 'string') stripped.add(tool.name);
  });
  return { kept, items, stripped, refusal };
}

/** Keys whose values the provider never reads as inputs (tool definitions, schemas, a tool call's own arguments). */
export type SkipKey = (key: string, parent: Readonly<Record<string, unknown>>) => boolean;

/**
 * Every input the provider would fetch, anywhere in `node` (content blocks nest: a tool result
 * holds images, a document holds blocks), found by the format's input rules. `skip` names the
 * keys not to descend into. Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findInputs(node: unknown, where: string, rules: readonly InputRule[], skip: SkipKey): PolicyItem[] {
  const items: PolicyItem[] = [];
  const stack: [unknown, string][] = [[node, where]];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${at}[${i}]`]);
      continue;
    }
    if (!isRecord(value)) continue;
    for (const rule of rules) {
      const found = rule.find(value);
      if (found !== null) items.push({ what: found, where: at, action: 'refused' });
    }
    for (const [key, child] of Object.entries(value).reverse()) {
      if (typeof child === 'object' && child !== null && !skip(key, value)) stack.push([child, at === '' ? key : `${at}.${key}`]);
    }
  }
  return items;
}

/** A URL the provider would fetch: anything but an inline `data:` URL (http, https, gs, a Files API URI). */
export function isRemote(url: unknown): url is string {
  return typeof url === 'string' && url.trim() !== '' && !/^\s*data:/i.test(url);
}

/** A URL shortened for a record. */
export function shortUrl(url: string): string {
  return url.length > 80 ? `${url.slice(0, 79)}…` : url;
}

/** The first refusal of a list of items, in the policy's words. */
export function firstRefusal(items: readonly PolicyItem[], why: (item: PolicyItem) => string): string | null {
  const first = items.find((item) => item.action === 'refused');
  return first === undefined ? null : why(first);
}

/**
 * Applies a table of request fields to `body`: each field set is recorded, a `strip` one deleted
 * from `out` (the copy to relay). Returns why the request must be refused (the first `refuse`
 * field), or null.
 */
export function sortFields(body: Readonly<Record<string, unknown>>, out: Record<string, unknown>, rules: readonly FieldRule[], items: PolicyItem[]): string | null {
  let refusal: string | null = null;
  for (const rule of rules) {
    if (body[rule.field] === undefined || body[rule.field] === null) continue;
    const strip = rule.action === 'strip';
    items.push({ what: `field ${rule.field} (${rule.does})`, where: rule.field, action: strip ? 'stripped' : 'refused' });
    if (strip) delete out[rule.field];
    else refusal ??= `${rule.field} is ${rule.does}`;
  }
  return refusal;
}

/** An inspection's end: the inputs found make the refusal when nothing else did; the copy is relayed only when something was stripped. */
export function inspected(body: Readonly<Record<string, unknown>>, out: Record<string, unknown>, items: PolicyItem[], refusal: string | null, inputs: readonly PolicyItem[]): Inspection {
  items.push(...inputs);
  const why = refusal ?? (inputs[0] ? `${inputs[0].where} is a ${inputs[0].what}: the provider would fetch it` : null);
  return { body: items.some((i) => i.action === 'stripped') ? out : (body as Record<string, unknown>), items, refusal: why };
}
