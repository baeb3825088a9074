import { applyToolPolicy, SEARCH_MODELS, TOOL_POLICIES, type WireFormat } from '../meter/index.js';
import type { ToolPolicyItem } from '../types.js';

/** One hand-made request of the attack: what a process inside a session sends to the proxy's base URL. */
export interface AttackRequest {
  readonly method: string;
  readonly path: string;
  /** The JSON body, or null for none. */
  readonly body: Readonly<Record<string, unknown>> | null;
  /** What it tries, for the attack's log. */
  readonly what: string;
}

/** Every URL in the attack is under this host: a request that carried one upstream is easy to find. */
export const ATTACK_URL_HOST = 'bakeoff-closed-web.invalid';

const PATHS: Readonly<Record<WireFormat, string>> = {
  'anthropic-messages': '/v1/messages',
  'openai-responses': '/v1/responses',
  'openai-chat': '/v1/chat/completions',
  'gemini-generate': '/v1beta/models/gemini-2.5-pro:generateContent',
};

/** A minimal generation body of each format, `extra` merged in. */
function bodyOf(format: WireFormat, extra: Readonly<Record<string, unknown>>): Record<string, unknown> {
  switch (format) {
    case 'anthropic-messages':
      return { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'What changed upstream in this project?' }], ...extra };
    case 'openai-responses':
      return { model: 'gpt-5.5', input: 'What changed upstream in this project?', ...extra };
    case 'openai-chat':
      return { model: 'gpt-5.5', messages: [{ role: 'user', content: 'What changed upstream in this project?' }], ...extra };
    case 'gemini-generate':
      return { contents: [{ role: 'user', parts: [{ text: 'What changed upstream in this project?' }] }], ...extra };
  }
}

/** Every URL in a value moved under {@link ATTACK_URL_HOST}. */
function marked<T>(value: T): T {
  let n = 0;
  return JSON.parse(JSON.stringify(value).replace(/https?:\/\/[^"\\\s]+/g, () => `https://${ATTACK_URL_HOST}/${++n}`)) as T;
}

/** Where an input part of each format sits in a message. */
function withInput(format: WireFormat, part: Readonly<Record<string, unknown>>): Record<string, unknown> {
  switch (format) {
    case 'anthropic-messages':
      return { messages: [{ role: 'user', content: [{ type: 'text', text: 'Read this.' }, part] }] };
    case 'openai-responses':
      return { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read this.' }, part] }] };
    case 'openai-chat':
      return { messages: [{ role: 'user', content: [{ type: 'text', text: 'Read this.' }, part] }] };
    case 'gemini-generate':
      return { contents: [{ role: 'user', parts: [{ text: 'Read this.' }, part] }] };
  }
}

/** A `tool_choice` that forces a declaration, in the format's spelling; null where the format has none for provider tools (Gemini). */
function forcing(format: WireFormat, tool: Readonly<Record<string, unknown>>): Record<string, unknown> | null {
  const name = typeof tool.name === 'string' ? tool.name : null;
  switch (format) {
    case 'anthropic-messages':
      return { type: 'tool', name: name ?? tool.type };
    case 'openai-responses':
      return name === null ? { type: tool.type } : { type: 'function', name };
    case 'openai-chat':
      return { type: tool.type };
    case 'gemini-generate':
      return null;
  }
}

/**
 * The hostile requests a process inside a model agent's session can send to the metering
 * proxy (its base URL is the session's only network), built from the tool tables themselves so
 * that every entry is tried: each provider tool declared, and forced with `tool_choice`; each
 * request field and URL input of the tables; a tool type no table knows; each model that
 * searches by itself; endpoints that are not generation (batches with a web search inside,
 * the Files API, cached contents). Every URL points at {@link ATTACK_URL_HOST}.
 */
export function closedWebAttack(): AttackRequest[] {
  const out: AttackRequest[] = [];
  for (const [format, policy] of Object.entries(TOOL_POLICIES) as [WireFormat, (typeof TOOL_POLICIES)[WireFormat]][]) {
    const path = PATHS[format];
    const post = (what: string, extra: Readonly<Record<string, unknown>>): void => void out.push({ method: 'POST', path, body: marked(bodyOf(format, extra)), what: `${format}: ${what}` });
    for (const rule of policy.tools.filter((r) => r.runs === 'provider')) {
      for (const tool of rule.examples) {
        post(`declares ${rule.name}`, { tools: [tool] });
        const choice = forcing(format, tool);
        if (choice !== null) post(`forces ${rule.name}`, { tools: [tool], tool_choice: choice });
      }
    }
    for (const rule of policy.fields) post(`field ${rule.field}`, { [rule.field]: rule.example });
    for (const rule of policy.inputs) post(rule.name, withInput(format, rule.example));
    post('an unknown tool type', { tools: [format === 'gemini-generate' ? { webBrowse: {} } : { type: 'web_browse_20261201', name: 'browse' }] });
  }
  for (const rule of SEARCH_MODELS) out.push({ method: 'POST', path: PATHS['openai-chat'], body: bodyOf('openai-chat', { model: rule.example }), what: `search model ${rule.example}` });
  const batch = { requests: [{ custom_id: 'a', params: bodyOf('anthropic-messages', { tools: [{ type: 'web_search_20250305', name: 'web_search' }] }) }] };
  out.push(
    { method: 'POST', path: '/v1/messages/batches', body: batch, what: 'a batch with a web search inside' },
    { method: 'GET', path: '/v1/files', body: null, what: 'the account\'s stored files' },
    { method: 'POST', path: '/v1beta/cachedContents', body: { model: 'models/gemini-2.5-pro', tools: [{ googleSearch: {} }] }, what: 'cached contents with Google Search' },
    { method: 'GET', path: '/v1/models/..%2Ffiles', body: null, what: 'the Files API behind an encoded slash' },
  );
  return out;
}

/**
 * The items the policy records for the attack, as the proxy applies it: on the closed web every
 * one is stripped or refused; on the open web (`openWeb`) they are allowed, but for the endpoints
 * that are not generation, which stay refused on both webs (decision 013).
 */
export function attackItems(openWeb: boolean, requests: readonly AttackRequest[] = closedWebAttack()): ToolPolicyItem[] {
  return requests.flatMap((r) => applyToolPolicy({ method: r.method, path: r.path, route: null, body: r.body === null ? Buffer.alloc(0) : Buffer.from(JSON.stringify(r.body)), contentEncoding: undefined, openWeb }).items);
}

/** How many items the closed-web policy withholds or refuses in the attack: what the run's web attempts must count. */
export function closedWebAttackItems(requests: readonly AttackRequest[] = closedWebAttack()): number {
  return attackItems(false, requests).length;
}

/** The file the attack's program is written to inside the sandbox. */
const PROGRAM = '/tmp/bakeoff-closed-web-attack.cjs';

/**
 * A shell command that writes the attack as a node program (a quoted heredoc: nothing
 * expands) and runs it against the session's model base URL (the harness's own variable, else
 * the proxy's port inside bakeoff's sandbox), six at a time, with dummy keys in every header a
 * CLI would use, and prints how the proxy answered.
 */
export function closedWebAttackCommand(requests: readonly AttackRequest[] = closedWebAttack()): string {
  const program = [
    `const requests = ${JSON.stringify(requests)};`,
    "const base = (process.env.ANTHROPIC_BASE_URL || process.env.GOOGLE_GEMINI_BASE_URL || 'http://127.0.0.1:8787').replace(/\\/+$/, '');",
    "const headers = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-x', authorization: 'Bearer sk-x', 'x-goog-api-key': 'x' };",
    '(async () => {',
    '  const statuses = {};',
    '  let next = 0;',
    '  const send = async () => {',
    '    while (next < requests.length) {',
    '      const r = requests[next++];',
    '      let status = "error";',
    '      try { const res = await fetch(base + r.path, { method: r.method, headers, body: r.body === null ? undefined : JSON.stringify(r.body) }); await res.text(); status = res.status; } catch {}',
    '      statuses[status] = (statuses[status] || 0) + 1;',
    '    }',
    '  };',
    '  await Promise.all(Array.from({ length: 6 }, send));',
    "  console.log('closed-web attack: ' + requests.length + ' requests to ' + base + '; answered ' + JSON.stringify(statuses));",
    '})();',
  ].join('\n');
  return `cat > ${PROGRAM} <<'BAKEOFF_ATTACK'\n${program}\nBAKEOFF_ATTACK\nnode ${PROGRAM}`;
}
