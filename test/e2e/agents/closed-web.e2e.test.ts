import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyToolPolicy } from '../../../src/meter/index.js';
import { ATTACK_URL_HOST, closedWebAttackItems } from '../../../src/model-server/index.js';
import type { ToolPolicyItem } from '../../../src/types.js';
import { bakeoff, copySuite, tempDir } from '../helpers.js';
import { AGENT_SPECS, oneTaskSuite, requireHarnesses } from './agent-helpers.js';

interface JsonRun { id: string; agent: string; outcome: string; voidReason: string | null; failReason: string | null; outcomeDetail: string | null; webAttempts: number | null }
interface Logged { method: string; path: string; status: number; body: unknown }

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
  const r = await bakeoff(args, { env });
  expect(r.exitCode, r.stderr).toBe(0);
  const json = JSON.parse((await bakeoff(['report', out, '--format', 'json'])).stdout) as Record<string, unknown> & { runs: JsonRun[] };
  return { out, runs: json.runs, stderr: r.stderr, json };
}

/*
 * The closed web against the five real CLIs (decision 013). Under `scripted:web` each CLI first
 * reaches for its own web tools (switched off by its setup), then runs the closed-web attack
 * through its shell tool — every provider tool, field and URL input of the four wire formats'
 * tables, declared and forced with tool_choice, unknown tool types, self-searching models,
 * endpoints that are not generation — at its session's base URL, the metering proxy; then it
 * makes the gold change. The scripted model logs what reached it past the proxy.
 */
describe('the closed web, with the five real CLIs against the scripted model', () => {
  const specs = Object.values(AGENT_SPECS);
  let suite = '';
  let web: Awaited<ReturnType<typeof bake>>;
  let log: Awaited<ReturnType<typeof upstreamLog>>;

  beforeAll(async () => {
    await requireHarnesses();
    suite = await oneTaskSuite(120);
    const logFile = path.join(await tempDir(), 'upstream.jsonl');
    web = await bake(suite, 'web', specs, { BAKEOFF_SCRIPTED_LOG: logFile });
    log = await upstreamLog(logFile);
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
    expect(log.raw).not.toContain(ATTACK_URL_HOST);
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

  it('an answer showing that the provider ran a tool voids the run provider-tool-used, for each wire format', async () => {
    // one CLI per wire format the CLIs speak: Anthropic Messages, Responses, Gemini
    const tool = await bake(suite, 'provider-tool', [AGENT_SPECS['claude-code'], AGENT_SPECS.codex, AGENT_SPECS['gemini-cli']]);
    expect(tool.runs.map((r) => [r.agent, r.outcome, r.voidReason])).toEqual(tool.runs.map((r) => [r.agent, 'void', 'provider-tool-used']));
    expect(tool.stderr).toMatch(/provider-tool-used/);
  }, 900_000);

  it('the open web lets them through, recorded, and is never baked or ranked beside the closed web', async () => {
    const open = await copySuite(suite);
    const file = path.join(open, 'suite.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('controls:\n', 'controls:\n  network: model-api+web\n'));
    expect((await bakeoff(['validate', open])).exitCode).toBe(0);
    const logFile = path.join(await tempDir(), 'open.jsonl');
    const openWeb = await bake(open, 'web', [AGENT_SPECS['claude-code']], { BAKEOFF_SCRIPTED_LOG: logFile });
    expect(openWeb.runs.map((r) => r.outcome)).toEqual(['solved']);
    expect(openWeb.json.network).toBe('model-api+web');
    const items = storedItems(openWeb.out).flatMap((s) => s.items);
    expect(items.length).toBeGreaterThanOrEqual(closedWebAttackItems());
    expect(new Set(items.map((i) => i.action))).toEqual(new Set(['allowed']));
    // what the closed web withholds reached the model, URL inputs and all
    expect(await readFile(logFile, 'utf8')).toContain(ATTACK_URL_HOST);
    expect((await bakeoff(['report', openWeb.out])).stdout).toMatch(/OPEN WEB/);
    // the same tasks on the open web into the closed-web results: refused before anything runs, the network named
    const mixed = await bakeoff(['run', open, '--upstream', 'scripted:gold', '--runs', '1', '--out', web.out, '--agent', AGENT_SPECS['claude-code']]);
    expect(mixed.exitCode).not.toBe(0);
    expect(mixed.stderr).toMatch(/network/);
    expect(mixed.stderr).toMatch(/closed-web and open-web runs are never ranked together/);
  }, 900_000);
});
