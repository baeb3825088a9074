import { describe, expect, it } from 'vitest';
import { applyToolPolicy, TOOL_POLICIES, type WireFormat } from '../meter/index.js';
import { providerToolUseOf } from '../meter/proxy/tool-policy/provider-tool-use.js';
import { parseUsage } from '../meter/usage/parse-usage.js';
import { ATTACK_URL_HOST, attackItems, closedWebAttack, closedWebAttackCommand, closedWebAttackItems } from './closed-web-attack.js';
import { withProviderToolUse } from './provider-tool-reply.js';
import { renderReply } from './render-reply.js';
import { scriptedUsage } from './scripted-usage.js';
import type { OfferedTool, ParsedRequest } from './types.js';
import { webReply } from './web-reply.js';

const FORMATS: WireFormat[] = ['anthropic-messages', 'openai-responses', 'openai-chat', 'gemini-generate'];
const schema = (...keys: string[]) => ({ type: 'object', properties: Object.fromEntries(keys.map((k) => [k, { type: 'string' }])), required: keys });
const tool = (name: string, ...keys: string[]): OfferedTool => ({ name, kind: 'function', schema: schema(...keys) });
const session = { workspace: '/workspace', edits: [{ path: 'a.txt', before: null, after: 'fixed\n' }] };
const request = (tools: OfferedTool[], toolCalls: string[]): ParsedRequest => ({ format: 'anthropic-messages', model: 'm', streamed: true, jsonArrayStream: false, includeUsage: false, tools, toolCalls });

describe('the closed-web attack', () => {
  const attack = closedWebAttack();

  it('tries every provider tool, field and input of every table, and nothing the policy would let through unchanged', () => {
    for (const [format, policy] of Object.entries(TOOL_POLICIES)) {
      const mine = attack.filter((r) => r.what.startsWith(`${format}: `));
      for (const rule of policy.tools.filter((r) => r.runs === 'provider')) expect(mine.filter((r) => r.what.includes(rule.name)).length, rule.name).toBeGreaterThanOrEqual(rule.examples.length);
      for (const rule of policy.fields) expect(mine.some((r) => r.what === `${format}: field ${rule.field}`), rule.field).toBe(true);
      for (const rule of policy.inputs) expect(mine.some((r) => r.what === `${format}: ${rule.name}`), rule.name).toBe(true);
    }
    for (const r of attack) {
      const verdict = applyToolPolicy({ method: r.method, path: r.path, route: null, body: Buffer.from(r.body === null ? '' : JSON.stringify(r.body)), contentEncoding: undefined, openWeb: false });
      expect(verdict.items.length, r.what).toBeGreaterThan(0);
    }
  });

  it('points every URL it carries at its own invalid host', () => {
    const urls = JSON.stringify(attack).match(/https?:\/\/[^"\\/]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(5);
    expect(new Set(urls)).toEqual(new Set([`https://${ATTACK_URL_HOST}`]));
  });

  it('on the open web, allows every item but the endpoints that are not generation, which stay refused', () => {
    const open = attackItems(true, attack);
    expect(open).toHaveLength(closedWebAttackItems(attack));
    const refused = open.filter((i) => i.action !== 'allowed');
    expect(refused.map((i) => i.what)).toEqual(['endpoint POST /v1/messages/batches', 'endpoint GET /v1/files', 'endpoint POST /v1beta/cachedContents', 'endpoint GET /v1/models/..%2Ffiles']);
    expect(new Set(refused.map((i) => `${i.action} ${i.where}`))).toEqual(new Set(['refused path']));
  });

  it('counts what a run must record, and fits in one shell argument', () => {
    expect(closedWebAttackItems(attack)).toBeGreaterThan(attack.length);
    expect(Buffer.byteLength(closedWebAttackCommand(attack))).toBeLessThan(120_000);
  });
});

describe('the web script', () => {
  const claude = [tool('Bash', 'command', 'description'), tool('Read', 'file_path'), tool('Write', 'file_path', 'content'), tool('Edit', 'file_path', 'old_string', 'new_string'), tool('ToolSearch', 'query')];
  const codex = [tool('exec_command', 'cmd'), { name: 'apply_patch', kind: 'custom', schema: null } as OfferedTool];
  const steps = (tools: OfferedTool[]): string[] => {
    const names: string[] = [];
    for (;;) {
      const reply = webReply(request(tools, names), session);
      if (reply.kind !== 'tool') return names;
      names.push(reply.name);
    }
  };

  it('loads and calls Claude Code\'s web tools, runs the attack through Bash, then makes the change', () => {
    expect(steps(claude)).toEqual(['ToolSearch', 'WebSearch', 'WebFetch', 'Bash', 'Write']);
    const attack = webReply(request(claude, ['ToolSearch', 'WebSearch', 'WebFetch']), session);
    expect(attack).toMatchObject({ kind: 'tool', name: 'Bash', input: { command: closedWebAttackCommand() } });
  });

  it('runs the attack through Codex\'s exec_command (its web search is the provider\'s), then patches', () => {
    expect(steps(codex)).toEqual(['exec_command', 'apply_patch']);
  });

  it('answers a request without tools (a title, a web search sub-request) shortly', () => {
    expect(webReply(request([], []), session)).toEqual({ kind: 'text', text: 'Scripted answer.' });
  });
});

describe('withProviderToolUse', () => {
  const reply = { kind: 'text' as const, text: 'Done: fixed.' };
  const cases = FORMATS.flatMap((format) => [
    [format, true, false] as const,
    [format, false, false] as const,
    ...(format === 'gemini-generate' ? [[format, true, true] as const] : []),
  ]);

  it.each(cases)('%s (streamed %s, JSON array %s): the meter still reads the whole answer, and finds that the provider ran a tool', (format, streamed, jsonArrayStream) => {
    const req = { ...request([], []), format, streamed, jsonArrayStream, includeUsage: true };
    const plain = renderReply(reply, req).chunks.join('');
    const used = withProviderToolUse(renderReply(reply, req), req).chunks.join('');
    const sse = streamed && !jsonArrayStream;
    expect(providerToolUseOf(format, plain, sse || jsonArrayStream)).toEqual([]);
    expect(providerToolUseOf(format, used, sse || jsonArrayStream).length).toBeGreaterThan(0);
    // the tokens as ever, and one web search billed where the format counts them
    const billed = format === 'anthropic-messages' || format === 'openai-responses' ? { webSearches: 1 } : {};
    expect(parseUsage(format, used, { streamed: streamed }).usage).toEqual({ ...scriptedUsage(format, 'm'), ...billed });
  });
});
