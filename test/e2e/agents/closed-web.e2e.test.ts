import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyToolPolicy } from '../../../src/meter/index.js';
import { ATTACK_URL_HOST, attackItems, closedWebAttackItems } from '../../../src/model-server/index.js';
import type { ToolPolicyItem } from '../../../src/types.js';
import { bakeoff, copySuite, tempDir } from '../helpers.js';
import { AGENT_SPECS, oneTaskSuite, requireHarnesses } from './agent-helpers.js';

interface JsonRun { id: string; agent: string; outcome: string; voidReason: string | null; failReason: string | null; outcomeDetail: string | null; webAttempts: number | null }
interface Logged { format: string | null; method: string; path: string; status: number; body: unknown }

/** Every request that reached the scripted model past the metering proxy (BAKEOFF_SCRIPTED_LOG). */
async function upstreamLog(file: string): Promise<{ raw: string; requests: Logged[] }> {
  const raw = await readFile(file, 'utf8');
  return { raw, requests: raw.trim().split('\n').map((line) => JSON.parse(line) as Logged) };
}

/** What the policy would withhold in a logged request, read as the proxy reads it. */
function withheldIn(r: Logged): ToolPolicyItem[] {
  const body = r.body === null || r.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(r.body));
  return applyToolPolicy({ method: r.method, path: r.path, route: null, body, contentEncoding: undefined, openWeb: false }).items;
}

type Json = Record<string, unknown>;
const records = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x): x is Json => typeof x === 'object' && x !== null) : []);

/**
 * A logged body without the arguments of the client tool calls the model itself made earlier in
 * the conversation (Anthropic `tool_use.input`, Responses `function_call.arguments` and
 * `custom_tool_call.input`, Chat `tool_calls[].function.arguments`, Gemini `functionCall.args`):
 * a CLI sends its history back with every request, and the attack's own shell command, or a URL
 * the model asked a (switched-off) client web tool to read, is text the model wrote, which no
 * provider fetches. Everything else of the body is kept: a URL input, a declaration or a field
 * anywhere in it still shows.
 */
function withoutToolCallArguments(format: string | null, body: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(body ?? null)) as Json | null;
  if (copy === null) return copy;
  if (format === 'anthropic-messages') for (const m of records(copy.messages)) for (const b of records(m.content)) if (b.type === 'tool_use') delete b.input;
  if (format === 'openai-responses') for (const item of records(copy.input)) if (item.type === 'function_call') delete item.arguments; else if (item.type === 'custom_tool_call') delete item.input;
  if (format === 'openai-chat') for (const m of records(copy.messages)) for (const c of records(m.tool_calls)) if (typeof c.function === 'object' && c.function !== null) delete (c.function as Json).arguments;
  if (format === 'gemini-generate') for (const c of records(copy.contents)) for (const p of records(c.parts)) if (typeof p.functionCall === 'object' && p.functionCall !== null) delete (p.functionCall as Json).args;
  return copy;
}

function storedItems(out: string): { runId: string; items: ToolPolicyItem[] }[] {
  const db = new Database(path.join(out, 'bakeoff.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT run_id AS runId, withheld_json AS w FROM requests').all() as { runId: string; w: string | null }[];
    return rows.map((r) => ({ runId: r.runId, items: r.w ? (JSON.parse(r.w) as ToolPolicyItem[]) : [] }));
  } finally {
    db.close();
  }
}

async function bake(suite: string, script: string, specs: readonly string[], env: Record<string, string> = {}): Promise<{ out: string; runs: JsonRun[]; stderr: string; json: Record<string, unknown> }> {
  const out = await tempDir();
  const args = ['run', suite, '--upstream', `scripted:${script}`, '--runs', '1', '--concurrency', '2', '--out', out, '--json'];
  for (const spec of specs) args.push('--agent', spec);
  let stderr = '';
  // a run void machine-starved is the machine's, never the agent's: the same command redoes it (decision 011), once, on a busy machine
  for (let attempt = 1; ; attempt++) {
    const r = await bakeoff(args, { env });
    expect(r.exitCode, r.stderr).toBe(0);
    stderr += r.stderr;
    const json = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as Record<string, unknown> & { runs: JsonRun[] };
    if (attempt === 2 || !json.runs.some((run) => run.voidReason === 'machine-starved')) return { out, runs: json.runs, stderr, json };
  }
}

/*
 * The closed web against the five real CLIs (decision 013). Under `scripted:web` each CLI first
 * reaches for its own web tools (switched off by its setup), then runs the closed-web attack
 * through its shell tool — every provider tool, field and URL input of the four wire formats'
 * tables, declared and forced with tool_choice, unknown tool types, self-searching models,
 * endpoints that are not generation — at its session's base URL, the metering proxy; then it
 * makes the gold change. The scripted model logs what reached it past the proxy. Three bakes, all
 * in beforeAll: the five CLIs on the closed web (the open-web suite is validated meanwhile), then
 * side by side the `provider-tool` answers (one CLI per wire format) and one CLI on the open web.
 */
describe('the closed web, with the five real CLIs against the scripted model', () => {
  const specs = Object.values(AGENT_SPECS);
  let web: Awaited<ReturnType<typeof bake>>;
  let log: Awaited<ReturnType<typeof upstreamLog>>;
  let tool: Awaited<ReturnType<typeof bake>>;
  let open = '';
  let openWeb: Awaited<ReturnType<typeof bake>>;
  let openLog: Awaited<ReturnType<typeof upstreamLog>>;

  beforeAll(async () => {
    const [, suite] = await Promise.all([requireHarnesses(), oneTaskSuite(120)]);
    // the open-web copy of the suite is validated while the closed web bakes
    const openSuite = (async () => {
      open = await copySuite(suite);
      const file = path.join(open, 'suite.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('controls:\n', 'controls:\n  network: model-api+web\n'));
      const v = await bakeoff(['validate', open]);
      expect(v.exitCode, v.stderr).toBe(0);
      return open;
    })();
    const logFile = path.join(await tempDir(), 'upstream.jsonl');
    const [baked] = await Promise.all([bake(suite, 'web', specs, { BAKEOFF_SCRIPTED_LOG: logFile }), openSuite]);
    web = baked;
    log = await upstreamLog(logFile);
    // then the two small bakes side by side: an answer showing provider tool use, one CLI per
    // wire format the CLIs speak (Anthropic Messages, Responses, Gemini); and the open web
    const openLogFile = path.join(await tempDir(), 'open.jsonl');
    [tool, openWeb] = await Promise.all([
      bake(suite, 'provider-tool', [AGENT_SPECS['claude-code'], AGENT_SPECS.codex, AGENT_SPECS['gemini-cli']]),
      bake(open, 'web', [AGENT_SPECS['claude-code']], { BAKEOFF_SCRIPTED_LOG: openLogFile }),
    ]);
    openLog = await upstreamLog(openLogFile);
  }, 900_000);

  it('every CLI still finishes its session: gold via the scripted model stays solved', () => {
    expect(web.runs).toHaveLength(specs.length);
    expect(web.runs.filter((r) => r.outcome !== 'solved').map((r) => `${r.agent}: ${r.outcome} ${r.voidReason ?? r.failReason} ${r.outcomeDetail}`), web.stderr).toEqual([]);
  });

  it('0 upstream requests carry a withheld tool, field or URL input, though the attack reached the proxy', () => {
    const attackBodies = log.requests.filter((r) => JSON.stringify(r.body ?? null).includes('What changed upstream in this project?'));
    // stripped declarations are relayed without them, from every CLI's session
    expect(attackBodies.length).toBeGreaterThanOrEqual(specs.length);
    expect(log.requests.map((r) => ({ path: r.path, withheld: withheldIn(r) })).filter((r) => r.withheld.length > 0)).toEqual([]);
    // the attack's URLs reach the upstream only as text the model wrote: its own earlier tool calls, sent back as history
    expect(log.raw).toContain(ATTACK_URL_HOST);
    expect(log.requests.filter((r) => JSON.stringify(withoutToolCallArguments(r.format, r.body)).includes(ATTACK_URL_HOST)).map((r) => r.path)).toEqual([]);
    expect(log.raw).not.toMatch(/tool_choice":\{"type":"(web_search|file_search|code_interpreter|image_generation|mcp)/);
  });

  it('counts each attempt on its run, and records each on its request', () => {
    const expected = closedWebAttackItems();
    const stored = storedItems(web.out);
    for (const run of web.runs) {
      const items = stored.filter((s) => s.runId === run.id).flatMap((s) => s.items);
      expect(items.length, run.agent).toBeGreaterThanOrEqual(expected);
      expect(run.webAttempts, run.agent).toBe(items.length);
      expect(new Set(items.map((i) => i.action)), run.agent).toEqual(new Set(['stripped', 'refused']));
    }
  });

  it('the leaderboard shows web attempts per agent and that the web was closed', async () => {
    const table = (await bakeoff(['report', web.out, '--wide'])).stdout;
    expect(table).toMatch(/web attempts/i);
    expect(table).toMatch(/closed web/i);
    expect(web.json.network).toBe('none');
  });

  it('an answer showing that the provider ran a tool voids the run provider-tool-used, for each wire format, and says so on stderr', () => {
    expect(tool.runs.map((r) => [r.agent, r.outcome, r.voidReason])).toEqual(tool.runs.map((r) => [r.agent, 'void', 'provider-tool-used']));
    // --json or not, the user is told which run the policy failed, and that it is bakeoff's failure
    for (const run of tool.runs) {
      const line = tool.stderr.split('\n').find((l) => l.startsWith(`bakeoff: error: run ${run.id} (add, ${run.agent}) is void provider-tool-used: `));
      expect(line, tool.stderr).toMatch(/model request 1 of \d+ \(\/[^)]+\) came back showing that the provider ran a tool: \S/);
    }
  });

  it('the open web lets them through, recorded, and is never baked or ranked beside the closed web', async () => {
    expect(openWeb.runs.map((r) => r.outcome)).toEqual(['solved']);
    expect(openWeb.json.network).toBe('model-api+web');
    const items = storedItems(openWeb.out).flatMap((s) => s.items);
    const expected = attackItems(true);
    expect(expected.length).toBe(closedWebAttackItems());
    expect(items.length).toBeGreaterThanOrEqual(expected.length);
    // every provider tool, field and URL input is allowed; only the endpoints that are not generation (batches, files, cached contents, a tricky path) stay refused on both webs
    const refused = (list: ToolPolicyItem[]): string[] => list.filter((i) => i.action !== 'allowed').map((i) => `${i.action} ${i.where} ${i.what}`).sort();
    expect(refused(expected).length).toBeGreaterThan(0);
    expect(refused(expected).every((i) => i.startsWith('refused path endpoint '))).toBe(true);
    expect(refused(items)).toEqual(refused(expected));
    // what the closed web withholds reached the model: URL inputs themselves, not only the model's own tool calls
    expect(openLog.requests.filter((r) => JSON.stringify(withoutToolCallArguments(r.format, r.body)).includes(ATTACK_URL_HOST)).length).toBeGreaterThan(0);
    expect((await bakeoff(['report', openWeb.out])).stdout).toMatch(/OPEN WEB/);
    // the same tasks on the open web into the closed-web results: refused before anything runs, the network named
    const mixed = await bakeoff(['run', open, '--upstream', 'scripted:gold', '--runs', '1', '--out', web.out, '--agent', AGENT_SPECS['claude-code']]);
    expect(mixed.exitCode).not.toBe(0);
    expect(mixed.stderr).toMatch(/network/);
    expect(mixed.stderr).toMatch(/closed-web and open-web runs are never ranked together/);
  });
});
