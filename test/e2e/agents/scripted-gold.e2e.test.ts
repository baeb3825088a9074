import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { harnessNamed } from '../../../src/agents/harnesses/index.js';
import { levelSourceOf, orderLevels } from '../../../src/agents/effort-levels.js';
import type { HarnessName } from '../../../src/agents/harnesses/index.js';
import type { HarnessTokens } from '../../../src/agents/harnesses/types.js';
import { listPrice } from '../../../src/meter/prices/prices.js';
import { scriptedUsage } from '../../../src/model-server/index.js';
import { admitOnly, bakeoff, copySuite, ROOT, tempDir } from '../helpers.js';
import { longest, onScreen, shownLines } from '../on-screen.js';
import { AGENT_SPECS, readStore, requireHarnesses } from './agent-helpers.js';

interface JsonRun {
  id: string; task: string; agent: string; outcome: string; voidReason: string | null; failReason: string | null; outcomeDetail: string | null;
  costUsd: number | null; tokensIn: number | null; tokensOut: number | null; flags: string[];
  usage: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; outputTokens: number; reasoningTokens: number; requests: number } | null;
}
interface JsonAgent { id: string; harness: string; version: string | null; model: string | null; effort: string | null }

/*
 * The five real CLIs, installed from npm at their pinned versions, each run sandboxed on every
 * starter task against bakeoff's scripted model (`--upstream scripted:gold`), which makes each
 * order's reference change through the calling harness's own edit tools. Run under
 * --trace-network: strace records every address each CLI tries to reach.
 */
describe('real agents on the starter suite with the scripted gold model', () => {
  const out = { dir: '' };
  let runs: JsonRun[] = [];
  let agents: JsonAgent[] = [];
  let stderr = '';

  beforeAll(async () => {
    await requireHarnesses();
    out.dir = await tempDir();
    const args = ['run', 'examples/starter', '--upstream', 'scripted:gold', '--runs', '1', '--concurrency', '2', '--trace-network', '--out', out.dir, '--json'];
    for (const spec of Object.values(AGENT_SPECS)) args.push('--agent', spec);
    const r = await bakeoff(args);
    stderr = r.stderr;
    expect(r.exitCode, r.stderr).toBe(0);
    const report = JSON.parse((await bakeoff(['report', out.dir, '--format', 'json'])).stdout) as { runs: JsonRun[]; agents: JsonAgent[] };
    runs = report.runs;
    agents = report.agents;
  }, 900_000);

  it('solves every starter task with every harness', () => {
    expect(runs).toHaveLength(4 * 5);
    const unsolved = runs.filter((r) => r.outcome !== 'solved').map((r) => `${r.agent} ${r.task}: ${r.outcome} ${r.voidReason ?? r.failReason} ${r.outcomeDetail}`);
    expect(unsolved, stderr).toEqual([]);
  });

  it('records harness, installed version, model and resolved effort for every agent', async () => {
    for (const [name, spec] of Object.entries(AGENT_SPECS) as [HarnessName, string][]) {
      const harness = harnessNamed(name);
      const model = spec.slice(name.length + 1).replace(/@.*$/, '');
      const agent = agents.find((a) => a.harness === name)!;
      expect(agent, name).toBeDefined();
      expect(agent.version).toBe(harness.version);
      expect(agent.model).toBe(model);
      const lowest = orderLevels((await levelSourceOf(harness, process.env)).levels(model) ?? [])[0];
      expect(agent.effort).toBe(spec.endsWith('@lowest') ? lowest : null);
    }
  });

  it('meters every request at exactly the scripted usage, and the harness reports the same after its normalization', () => {
    const { sessions, requests } = readStore(out.dir);
    for (const run of runs) {
      const agent = agents.find((a) => a.id === run.agent)!;
      const format = harnessNamed(agent.harness as HarnessName).wireFormat(agent.model!);
      const per = scriptedUsage(format);
      const mine = requests.filter((q) => q.run_id === run.id);
      expect(mine.length, `${run.agent} ${run.task}`).toBeGreaterThan(0);
      for (const q of mine.filter((x) => x.format !== null)) {
        expect(q).toMatchObject({ status: 200, failure: null, format, input: per.inputTokens, cache_read: per.cacheReadTokens, cache_write: per.cacheWriteTokens, output: per.outputTokens, reasoning: per.reasoningTokens });
      }
      const n = mine.filter((x) => x.format !== null).length;
      expect(run.usage).toEqual({
        inputTokens: n * per.inputTokens, cacheReadTokens: n * per.cacheReadTokens, cacheWriteTokens: n * per.cacheWriteTokens,
        outputTokens: n * per.outputTokens, reasoningTokens: n * per.reasoningTokens, requests: mine.length,
      });
      expect(run.tokensIn).toBe(n * per.inputTokens);
      expect(run.tokensOut).toBe(n * per.outputTokens);
      for (const s of sessions.filter((x) => x.run_id === run.id)) {
        const reported = (JSON.parse(s.harness_json!) as { tokens: HarnessTokens | null }).tokens;
        const metered = JSON.parse(s.usage_json!) as Record<string, number>;
        expect(reported, `${run.agent} ${run.task}`).not.toBeNull();
        for (const [key, value] of Object.entries(reported!)) {
          if (value !== null) expect(value, `${run.agent} ${run.task} ${key}`).toBe(metered[key]);
        }
      }
      expect(run.flags, `${run.agent} ${run.task}`).toEqual([]);
    }
  });

  it('prices the metered tokens at list prices (base rate per token class)', () => {
    for (const run of runs) {
      const agent = agents.find((a) => a.id === run.agent)!;
      const model = agent.model!.replace(/^[a-z]+\//, '');
      const price = listPrice(model);
      expect(price, model).not.toBeNull();
      const u = run.usage!;
      const expected = ((u.inputTokens - u.cacheReadTokens - u.cacheWriteTokens) * price!.input + u.cacheReadTokens * price!.cacheRead + u.cacheWriteTokens * price!.cacheWrite + u.outputTokens * price!.output) / 1e6;
      expect(run.costUsd, `${run.agent} ${run.task}`).toBeCloseTo(expected, 12);
    }
    // Claude Sonnet 4.5 at $3 / $0.30 / $3.75 / $15 per MTok (input / cache read / cache write / output)
    const sonnet = runs.find((r) => r.agent === AGENT_SPECS['claude-code'])!;
    const u = sonnet.usage!;
    expect(sonnet.costUsd).toBeCloseTo(((u.inputTokens - u.cacheReadTokens - u.cacheWriteTokens) * 3 + u.cacheReadTokens * 0.3 + u.cacheWriteTokens * 3.75 + u.outputTokens * 15) / 1e6, 12);
  });

  it('no CLI tries to reach anything but the metering proxy', async () => {
    for (const run of runs) {
      const trace = JSON.parse(await readFile(path.join(out.dir, 'runs', run.id, 'order-1', 'network.json'), 'utf8')) as { family: string; address: string }[];
      const inet = trace.filter((a) => a.family === 'inet' || a.family === 'inet6' || a.family === 'other');
      expect(inet.length, `${run.agent}: strace saw the proxy connection`).toBeGreaterThan(0);
      expect(inet.filter((a) => a.address !== '127.0.0.1:8787'), `${run.agent} ${run.task}`).toEqual([]);
    }
  });

  it('records each session so that it replays: the same CLI given the recorded answers solves the task again, token for token', async () => {
    // the recorded answers are csv-multiline-fields's: replay on a copy admitting that task only
    const csvOnly = await copySuite(path.join(ROOT, 'examples/starter'));
    await admitOnly(csvOnly, ['csv-multiline-fields']);
    // two replays at a time, as the bake above runs two sessions at a time (--concurrency 2)
    const replay = async ([name, spec]: [HarnessName, string]): Promise<void> => {
      const agent = agents.find((a) => a.harness === name)!;
      const run = runs.find((r) => r.agent === agent.id && r.task === 'csv-multiline-fields')!;
      const recorded = path.join(out.dir, 'runs', run.id, 'order-1', 'model-responses.jsonl');
      const again = await tempDir();
      const r = await bakeoff(['run', csvOnly, '--agent', spec, '--upstream', `scripted:${recorded}`, '--runs', '1', '--out', again, '--json']);
      expect(r.exitCode, r.stderr).toBe(0);
      const replayed = (JSON.parse((await bakeoff(['report', again, '--format', 'json'])).stdout) as { runs: JsonRun[] }).runs.find((x) => x.task === run.task)!;
      expect(replayed.outcome, `${name}: ${replayed.outcomeDetail}`).toBe('solved');
      expect(replayed.usage, name).toEqual(run.usage);
    };
    const specs = Object.entries(AGENT_SPECS) as [HarnessName, string][];
    for (let i = 0; i < specs.length; i += 2) await Promise.all(specs.slice(i, i + 2).map(replay));
  });

  it('keeps each harness\'s stream and the leaderboard says the tokens were scripted', async () => {
    const stream = await readFile(path.join(out.dir, 'runs', runs[0]!.id, 'order-1', 'stream.jsonl'), 'utf8');
    expect(stream.trim().length).toBeGreaterThan(0);
    const table = (await bakeoff(['report', out.dir])).stdout;
    expect(table).toContain('scripted:gold');
    expect(table).toMatch(/genai-prices/);
  });

  it('on a terminal of 100 and 80 columns the table of this model bake keeps time, cost per fix and tokens longest', async () => {
    const header = (text: string): string => shownLines(text).find((line) => /^ #  agent /.test(line)) ?? '';
    const wide = await onScreen(100, ['report', out.dir]);
    expect(wide.exitCode, wide.text).toBe(0);
    expect(longest(wide.text), wide.text).toBeLessThanOrEqual(100);
    expect(header(wide.text).split(/\s{2,}/), wide.text).toEqual(expect.arrayContaining(['time', 'cost/fix', 'tok in']));
    // the run counts and the identity columns leave first, then solved (the share says it), then tokens out —
    // which fits at 100 or not by how wide this bake's figures are (a quick machine's times are shorter): shown or named, never lost
    const leftWide = /left out to fit 100 columns: ([^;]*);/.exec(wide.text)?.[1] ?? '';
    expect(leftWide, wide.text).toMatch(/^runs,[^;]*\bsolved\b/);
    expect(header(wide.text).split(/\s{2,}/).includes('tok out'), wide.text).toBe(!/\btokens out\b/.test(leftWide));
    // at 80 the longest id (36 characters) leaves room beside share and void for one more column:
    // the run counts and identity leave first, then tokens, then time; cost per fix stays longest
    const narrow = await onScreen(80, ['report', out.dir]);
    expect(longest(narrow.text), narrow.text).toBeLessThanOrEqual(80);
    expect(header(narrow.text).split(/\s{2,}/), narrow.text).toContain('cost/fix');
    expect(narrow.text).toMatch(/left out to fit 80 columns: runs,[^;]*\bsolved,[^;]*\btokens out,[^;]*\btokens in,[^;]*\bmedian time;/);
  });
});
