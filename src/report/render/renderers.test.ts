import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentInfo, Outcome, RunRecord } from '../../types.js';
import { summarize } from '../view/summarize.js';
import { renderTable } from './render-table.js';
import { renderMarkdown } from './render-markdown.js';
import { renderMatrix } from './render-matrix.js';
import { buildJsonReport, renderJson, renderJsonChunks } from './render-json.js';

// Fixture: three agents on ten tasks, one run each (standard 1), so every interval is Wilson.
//   strong   8 solved, 1 failed, 1 void (infra-error), $0.50 a run   → 88.9%, cost/fix $5/8
//   weak|pipe 5 solved, 5 failed, no cost or token data              → 50.0% [23.7–76.3]
//   partial  3 solved of 5 tasks (tagged), $1 a run                  → 60.0%
const SOLVED: Outcome = { kind: 'solved' };
const FAILED: Outcome = { kind: 'failed', reason: 'tests-failed', detail: '2 of 7 tests failed' };
const VOID: Outcome = { kind: 'void', reason: 'infra-error' };

function agent(id: string, extra: Partial<AgentInfo> = {}): AgentInfo {
  return { id, harness: 'builtin', version: null, model: null, effort: null, ...extra };
}

function run(who: AgentInfo, t: number, outcome: Outcome, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    id: `${who.id}/t${t}`,
    suiteId: 'demo',
    suiteHash: 'sha256:5a17e',
    controlsDigest: 'sha256:c0ffee',
    task: `t${String(t).padStart(2, '0')}`,
    agent: who,
    replay: 0,
    seed: null,
    level: null,
    outcome,
    agentSec: 60 + t,
    gradeSec: 2,
    costUsd: null,
    tokensIn: null,
    tokensOut: null,
    linesAdded: 10,
    linesRemoved: 2,
    points: 0,
    maxPoints: 0,
    orders: [],
    runtime: {},
    startedAt: '2025-01-01T00:00:00Z',
    finishedAt: '2025-01-01T00:02:00Z',
    ...extra,
  };
}

const strong = agent('strong', { harness: 'claude-code', version: '2.0.1', model: 'opus', effort: 'high' });
const weak = agent('weak|pipe');
const partial = agent('partial', { harness: 'codex', version: '0.9.0', model: 'gpt' });
const tasks = [...Array(10).keys()];
const runs: RunRecord[] = [
  ...tasks.map((t) =>
    run(weak, t, t < 5 ? SOLVED : FAILED),
  ),
  ...tasks.map((t) =>
    run(strong, t, t < 8 ? SOLVED : t === 8 ? FAILED : VOID, { costUsd: 0.5, tokensIn: 120_000, tokensOut: 3_000 }),
  ),
  ...tasks.slice(0, 5).map((t) => run(partial, t, t < 3 ? SOLVED : FAILED, { costUsd: 1 })),
];
const controls = { runsPerTask: 1, sessionWallClockSec: 600 };
const view = summarize(runs, { standardRunsPerTask: 1, controls });

describe('renderTable', () => {
  const text = renderTable(view);
  const lines = text.split('\n');
  const header = lines.find((line) => line.startsWith('#')) ?? '';
  const rowOf = (id: string): string => lines.find((line) => line.includes(` ${id} `)) ?? '';

  it('shows agents of the same score as tied, in the table, the markdown and the JSON', () => {
    const twins = [...tasks.map((t) => run(agent('twin-a'), t, t < 5 ? SOLVED : FAILED)), ...tasks.map((t) => run(agent('twin-b'), t, t % 2 === 0 ? SOLVED : FAILED))];
    const tied = summarize([...runs, ...twins], { standardRunsPerTask: 1, controls });
    const table = renderTable(tied).split('\n');
    const md = renderMarkdown(tied).split('\n');
    for (const id of ['weak|pipe', 'twin-a', 'twin-b']) {
      expect(table.find((line) => line.includes(` ${id} `)), id).toMatch(/^=3 /);
      expect(md.find((line) => line.includes(id.replace('|', '\\|'))), id).toMatch(/^\| =3 \|/);
    }
    expect(table.find((line) => line.includes(' strong '))).toMatch(/^ *1 /);
    expect(table.find((line) => line.includes(' partial '))).toMatch(/^ *2 /);
    const json = buildJsonReport(tied, []).agents.map((a) => [a.id, a.rank, a.tied]);
    expect(json).toEqual([['strong', 1, false], ['partial', 2, false], ['twin-a', 3, true], ['twin-b', 3, true], ['weak|pipe', 3, true]]);
  });

  it('lists the agents in rank order, numbered', () => {
    const order = ['strong', 'partial', 'weak|pipe'].map((id) => lines.indexOf(rowOf(id)));
    expect(order.every((index) => index > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(rowOf('strong')).toMatch(/^1 /);
    expect(rowOf('partial')).toMatch(/^2 /);
    expect(rowOf('weak|pipe')).toMatch(/^3 /);
  });

  it('shows share with interval, share with void as failed, void count, run tag, medians, tokens and cost per fix', () => {
    expect(rowOf('strong')).toMatch(
      /1\s+strong\s+claude-code\s+2\.0\.1\s+opus@high\s+10\s+8\s+–\s+88\.9% \[56\.5–98\.0\]\s+80\.0%\s+1\s+1m 04s\s+12\s+1\.20M\s+30\.0k\s+\$0\.625$/,
    );
    expect(rowOf('partial')).toContain('5 (5 of 10 tasks)');
    expect(rowOf('weak|pipe')).toContain('50.0% [23.7–76.3]');
  });

  it('shows missing values as a dash', () => {
    // weak has no version, model, tokens or cost: five dashes, and nothing reads as 0.
    expect(rowOf('weak|pipe').match(/ – /g)?.length ?? 0).toBeGreaterThanOrEqual(4);
    expect(rowOf('weak|pipe')).toMatch(/–$/);
  });

  it('shows a dash, not 0%, for the share of an agent whose runs were all void', () => {
    const broken = agent('broken');
    const allVoid = summarize([run(broken, 0, VOID), run(broken, 1, VOID)], { standardRunsPerTask: 1 });
    const row = renderTable(allVoid).split('\n').find((line) => line.includes(' broken ')) ?? '';
    expect(row).toMatch(/^1\s+broken\s+builtin\s+–\s+–\s+2\s+0\s+–\s+–\s+0\.0%\s+2\s+–\s+–\s+–\s+–\s+–$/);
  });

  it('aligns every column: right-aligned cells end where their header ends', () => {
    const shareEnd = header.indexOf('share [95% CI]') + 'share [95% CI]'.length;
    for (const id of ['strong', 'partial', 'weak|pipe']) {
      const row = rowOf(id);
      const cell = row.match(/\d+\.\d% \[[\d.]+–[\d.]+\]/)?.[0] ?? '';
      expect(cell, id).not.toBe('');
      expect(row.indexOf(cell) + cell.length, id).toBe(shareEnd);
    }
  });

  it('names the suite, its hash and the controls digest, and explains the counting', () => {
    expect(text).toContain('demo');
    expect(text).toContain('sha256:5a17e');
    expect(text).toContain('sha256:c0ffee');
    expect(text).toMatch(/Void runs .* left out of the share/s);
  });

  it('emits ANSI bold only when asked for color', () => {
    expect(text).not.toContain('\u001b[');
    expect(renderTable(view, { color: true })).toContain('\u001b[1m#');
  });
});

/** Split a GFM table line into cells, honouring `\|` escapes. */
function cells(line: string): string[] {
  expect(line.startsWith('| ') && line.endsWith(' |')).toBe(true);
  return line.slice(2, -2).split(/(?<!\\) \| /);
}

describe('renderMarkdown', () => {
  const text = renderMarkdown(view);
  const tableLines = firstTable(text);

  it('is a valid GitHub table: header, alignment row, one row per agent, equal cell counts', () => {
    const [head, rule, ...rows] = tableLines;
    const width = cells(head ?? '').length;
    expect(width).toBe(16);
    expect(cells(rule ?? '').every((cell) => /^:?-{3,}:?$/.test(cell))).toBe(true);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(cells(row)).toHaveLength(width);
  });

  it('lists the agents in rank order and escapes a pipe in an agent id', () => {
    const ids = tableLines.slice(2).map((line) => cells(line)[1]);
    expect(ids).toEqual(['`strong`', '`partial`', '`weak\\|pipe`']);
  });

  it('gives the suite id and hash, the controls digest and how share, interval and void are counted', () => {
    expect(text).toContain('Suite `demo`, hash `sha256:5a17e`; controls digest `sha256:c0ffee`');
    expect(text).toContain('Share = runs solved / valid runs');
    expect(text).toContain('Wilson');
    expect(text).toContain('Void runs: `strong`: infra-error 1.');
  });
});

const Interval = z.object({ low: z.number().min(0).max(1), high: z.number().min(0).max(1) });
const nullableNumber = z.number().nullable();
const JsonReportSchema = z.object({
  schemaVersion: z.literal(1),
  suite: z.object({ id: z.string(), hash: z.string() }),
  controls: z.unknown(),
  controlsDigest: z.string(),
  agents: z.array(
    z.object({
      id: z.string(),
      harness: z.string(),
      version: z.string().nullable(),
      model: z.string().nullable(),
      effort: z.string().nullable(),
      runs: z.number().int(),
      solved: z.number().int(),
      void: z.number().int(),
      solveShare: nullableNumber,
      ci95: Interval.nullable(),
      costPerFixUsd: nullableNumber,
      medianRunSec: nullableNumber,
      medianLinesToReview: nullableNumber,
      tokensIn: nullableNumber,
      tokensOut: nullableNumber,
    }),
  ),
  runs: z.array(
    z.object({
      id: z.string(),
      task: z.string(),
      agent: z.string(),
      replay: z.number().int(),
      outcome: z.enum(['solved', 'failed', 'void']),
      voidReason: z.string().nullable(),
      agentSec: z.number(),
      costUsd: nullableNumber,
      tokensIn: nullableNumber,
      tokensOut: nullableNumber,
      linesAdded: z.number().int(),
      linesRemoved: z.number().int(),
      plainLinesAdded: nullableNumber,
      plainLinesRemoved: nullableNumber,
      points: z.number(),
      maxPoints: z.number(),
    }),
  ),
});

describe('renderJson', () => {
  const parsed: unknown = JSON.parse(renderJson(view, runs));

  it('has the shape of DESIGN.md §5', () => {
    const result = JsonReportSchema.safeParse(parsed);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it('is the report object, serialized without loss', () => {
    expect(parsed).toEqual(JSON.parse(JSON.stringify(buildJsonReport(view, runs))));
    expect(renderJson(view, runs).endsWith('}\n')).toBe(true);
  });

  it('is, written in pieces, the text of the whole report stringified at once, byte for byte (many pieces, none, a field after the runs)', () => {
    const whole = (r: readonly RunRecord[], extra: object = {}) => `${JSON.stringify({ ...buildJsonReport(view, r), ...extra }, null, 2)}\n`;
    const many = Array.from({ length: 1234 }, (_, i) => ({ ...runs[i % runs.length]!, id: `copy-${i}`, replay: i }));
    const pieces = [...renderJsonChunks(view, many)];
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(whole(many));
    expect(renderJson(view, runs)).toBe(whole(runs));
    expect([...renderJsonChunks(view, [])].join('')).toBe(whole([]));
    const fleet = { fleet: { reExecuted: 1, workers: ['w1', 'w2'] } };
    expect([...renderJsonChunks(view, runs, fleet)].join('')).toBe(whole(runs, fleet));
    expect([...renderJsonChunks(view, [], fleet)].join('')).toBe(whole([], fleet));
  });

  it('carries suite, controls and agents in rank order with plain numbers', () => {
    const report = JsonReportSchema.parse(parsed);
    expect(report.suite).toEqual({ id: 'demo', hash: 'sha256:5a17e' });
    expect(report.controls).toEqual(controls);
    expect(report.agents.map((a) => a.id)).toEqual(['strong', 'partial', 'weak|pipe']);
    const top = report.agents[0];
    expect(top).toMatchObject({ harness: 'claude-code', version: '2.0.1', model: 'opus', effort: 'high' });
    expect(top).toMatchObject({ runs: 10, solved: 8, void: 1, tokensIn: 1_200_000, tokensOut: 30_000 });
    // Tokens and cost count every run, the void one included; the share does not.
    expect(top?.solveShare).toBeCloseTo(8 / 9, 12);
    expect(top?.costPerFixUsd).toBeCloseTo(0.625, 12);
    expect(report.agents[2]).toMatchObject({ solveShare: 0.5, costPerFixUsd: null, tokensIn: null });
  });

  it('lists every run once, sorted, with its outcome and void reason', () => {
    const report = JsonReportSchema.parse(parsed);
    expect(report.runs).toHaveLength(runs.length);
    const voidRun = report.runs.find((r) => r.id === 'strong/t9');
    expect(voidRun).toMatchObject({ task: 't09', agent: 'strong', outcome: 'void', voidReason: 'infra-error' });
    // Fields beyond §5 are read from the raw JSON: the schema strips unknown keys.
    const raw = (parsed as { runs: { id: string }[] }).runs;
    const failedRun = raw.find((r) => r.id === 'strong/t8');
    expect(failedRun).toMatchObject({ outcome: 'failed', voidReason: null, failReason: 'tests-failed', outcomeDetail: '2 of 7 tests failed' });
    const keys = report.runs.map((r) => `${r.task} ${r.agent}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('writes null, not undefined, when no controls were given', () => {
    const bare = JSON.parse(renderJson(summarize(runs, { standardRunsPerTask: 1 }), runs)) as { controls: unknown };
    expect(bare.controls).toBeNull();
  });
});

describe('runs made without a sandbox', () => {
  const who = agent('dev');
  const safe = run(who, 1, SOLVED, { runtime: { sandbox: 'bwrap' } });
  const unsafe = run(who, 2, FAILED, { runtime: { sandbox: 'unsafe-no-sandbox' } });

  it('are counted and warned about in every rendering', () => {
    const view = summarize([safe, unsafe], { standardRunsPerTask: 1 });
    expect(view.unsafeRuns).toBe(1);
    expect(renderTable(view)).toMatch(/^WARNING: 1 run\(s\) were made with --unsafe-no-sandbox/);
    expect(renderMarkdown(view)).toMatch(/^> \*\*WARNING: 1 run\(s\) were made with --unsafe-no-sandbox/);
    expect(buildJsonReport(view, [safe, unsafe])).toMatchObject({ unsafeRuns: 1, sandboxes: ['bwrap', 'unsafe-no-sandbox'] });
  });

  it('leave no warning when every run was sandboxed', () => {
    const view = summarize([safe], { standardRunsPerTask: 1 });
    expect(renderTable(view)).not.toMatch(/WARNING/);
    expect(renderMarkdown(view)).not.toMatch(/WARNING/);
  });
});

describe('points', () => {
  it('shows points as passed/expected in the tables and per order in the JSON', () => {
    const who = agent('calib');
    const r = run(who, 1, FAILED, { points: 60, maxPoints: 64, orders: [{ order: 1, points: 32, maxPoints: 32 }, { order: 2, points: 28, maxPoints: 32 }] });
    const v = summarize([r], { standardRunsPerTask: 1 });
    expect(renderTable(v)).toMatch(/ 60\/64 /);
    expect(buildJsonReport(v, [r]).runs[0]).toMatchObject({ points: 60, maxPoints: 64, orders: [{ order: 1, points: 32 }, { order: 2, points: 28 }] });
  });
});

describe('points by task and order', () => {
  it('shows each task per order, each agent total and the tasks passed with every point', () => {
    const a = agent('calib');
    const rs = [
      run(a, 1, SOLVED, { points: 64, maxPoints: 64, orders: [{ order: 1, points: 32, maxPoints: 32 }, { order: 2, points: 32, maxPoints: 32 }] }),
      run(a, 2, FAILED, { points: 50, maxPoints: 64, orders: [{ order: 1, points: 32, maxPoints: 32 }, { order: 2, points: 18, maxPoints: 32 }] }),
    ];
    const text = renderTable(summarize(rs, { standardRunsPerTask: 1 }));
    expect(text).toMatch(/t01\s+32\+32\/64 ✓/);
    expect(text).toMatch(/t02\s+32\+18\/64 ✗/);
    expect(text).toMatch(/total\s+114\/128, 1\/2 passed/);
  });

  it('is left out for single-order suites', () => {
    expect(renderTable(view)).not.toMatch(/Points by task/);
  });
});

describe('void limit and replay rule in every rendering', () => {
  const a = agent('alpha');
  const b = agent('beta');
  const replayed = (who: AgentInfo, t: number, outcomes: Outcome[]): RunRecord[] =>
    outcomes.map((outcome, replay) => run(who, t, outcome, { id: `${who.id}/t${t}/${replay}`, replay }));
  // alpha: t0 agrees solved, t1 drifts, t2 has a void replay; beta: all agree (t0, t1 solved; t2 failed).
  const replayRuns = [
    ...replayed(a, 0, [SOLVED, SOLVED]),
    ...replayed(a, 1, [SOLVED, FAILED]),
    ...replayed(a, 2, [FAILED, VOID]),
    ...replayed(b, 0, [SOLVED, SOLVED]),
    ...replayed(b, 1, [SOLVED, SOLVED]),
    ...replayed(b, 2, [FAILED, FAILED]),
  ];
  const rules = { runsPerTask: 2, replayRule: { replays: 2, allowedDrift: 0 }, voidLimit: 1 };
  const refused = summarize(replayRuns, { standardRunsPerTask: 2, controls: rules });
  const ranked = summarize(replayRuns, { standardRunsPerTask: 2, controls: { ...rules, voidLimit: 2 } });

  it('the table says on top why it refuses to rank and shows every rank as a dash', () => {
    const text = renderTable(refused);
    const lines = text.split('\n');
    const top = text.slice(0, text.indexOf('\n\n')).replace(/\n/g, ' ');
    expect(top).toMatch(/^NOT RANKED: more void tasks than the void limit of 1: alpha has 2 of 3 tasks void \(replay-drift 1, infra-error 1\)/);
    const rows = lines.filter((line) => / (alpha|beta)\s+builtin /.test(line));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/^–\s/);
    expect(renderTable(ranked)).not.toContain('NOT RANKED');
    // alpha solved its one valid task (100%), beta 2 of 3.
    expect(renderTable(ranked).split('\n').find((line) => line.includes(' alpha '))).toMatch(/^1\s/);
  });

  it('the markdown says on top why it refuses to rank and shows every rank as a dash', () => {
    const text = renderMarkdown(refused);
    expect(text.split('\n')[0]).toMatch(/^> \*\*Not ranked:\*\* more void tasks than the void limit of 1: alpha has 2 of 3/);
    const rows = firstTable(text).filter((line) => /`(alpha|beta)`/.test(line));
    expect(rows.map((row) => cells(row)[0])).toEqual(['–', '–']);
    expect(renderMarkdown(ranked)).not.toContain('Not ranked');
  });

  it('the JSON carries ranking {refused, reason}, null ranks, void tasks and replay agreement', () => {
    const json = JSON.parse(renderJson(refused, replayRuns)) as {
      ranking: { refused: boolean; reason?: string };
      replayRule: unknown;
      voidLimit: number;
      agents: { id: string; rank: number | null; voidTasksByReason: object; replay: { agreeing: number; compared: number }; solveShare: number; solveShareVoidAsFail: number }[];
    };
    expect(json.ranking.refused).toBe(true);
    expect(json.ranking.reason).toContain('void limit of 1');
    expect([json.replayRule, json.voidLimit]).toEqual([{ replays: 2, allowedDrift: 0 }, 1]);
    expect(json.agents.map((x) => [x.id, x.rank])).toEqual([['alpha', null], ['beta', null]]);
    const alpha = json.agents[0]!;
    expect(alpha.voidTasksByReason).toEqual({ 'replay-drift': 1, 'infra-error': 1 });
    expect(alpha.replay).toMatchObject({ agreeing: 1, compared: 2 });
    expect([alpha.solveShare, alpha.solveShareVoidAsFail]).toEqual([1, 1 / 3]);
    expect((JSON.parse(renderJson(ranked, replayRuns)) as { ranking: unknown }).ranking).toEqual({ refused: false });
  });

  it('shows the share with void as failed, void tasks and replay agreement in table and markdown', () => {
    const table = renderTable(ranked);
    const header = table.split('\n').find((line) => line.startsWith('#')) ?? '';
    for (const column of ['void as failed', 'void tasks', 'replays agree', 'tasks solved']) expect(header).toContain(column);
    expect(table.split('\n').find((line) => line.includes(' alpha '))).toMatch(/100\.0% \[[\d.]+–[\d.]+\]\s+33\.3%\s+1\s+2\s+1\/2/);
    expect(table).toContain('replay rule: 2 replays per task, allowed drift 0; void limit: 2 void tasks');
    expect(table).toContain('Share = tasks solved / valid tasks');
    expect(table).not.toContain('Share = runs solved / valid runs');
    expect(table).toMatch(/alpha\s+t01\s+replay-drift: replays disagree: 1 solved, 1 failed/);
    const md = renderMarkdown(ranked);
    expect(md).toContain('| void as failed |');
    expect(md).toContain('Replay agreement (tasks agreeing / tasks compared): `alpha` 1/2, `beta` 3/3.');
    expect(md).toContain('Void tasks: `alpha`: 2 of 3 (replay-drift 1, infra-error 1).');
  });

  it('without explain, leaves the counting notes out and says how to see them; the points note comes with them', () => {
    const short = renderTable(ranked, { explain: false, explainHint: 'How each number is counted: add --explain.' });
    expect(short).not.toContain('Share = tasks solved');
    expect(short).not.toContain('Replay rule: 2 replays');
    expect(short).toContain('How each number is counted: add --explain.');
    // the refusal, the void tasks and the one-line rule summary stay
    expect(short).toContain('replay rule: 2 replays per task, allowed drift 0; void limit: 2 void tasks');
    expect(short).toMatch(/alpha\s+t01\s+replay-drift/);
    const withPoints = summarize(runs.map((r) => ({ ...r, points: 3, maxPoints: 5 })), { standardRunsPerTask: 1, controls });
    expect(renderTable(withPoints)).toContain('Points = expected tests (or generated checks) that passed');
    expect(renderTable(view)).not.toContain('Points = ');
  });

  it('draws the task × agent matrix for a terminal, fitted to a width', () => {
    const text = renderMatrix(view, 200);
    const lines = text.split('\n');
    expect(lines[0]).toBe('Solved runs by task (solved/runs):');
    expect(lines[1]).toMatch(/^task\s+strong\s+partial\s+weak\|pipe$/);
    expect(lines).toHaveLength(2 + tasks.length);
    expect(lines.slice(2).every((line) => /^t\d+(\s+(\d\/\d( \(\d void\))?|–)){3}$/.test(line))).toBe(true);
    const narrow = renderMatrix(view, 20).split('\n');
    expect(narrow.at(-1)).toBe('left out to fit 20 columns: partial, weak|pipe');
    expect(narrow.slice(1, -1).every((line) => line.length <= 20)).toBe(true);
  });

  it('says there is no replay rule and no void limit when the controls set none', () => {
    expect(renderTable(view)).toContain('no replay rule; no void limit');
    expect(renderTable(view)).not.toContain('replays agree');
    expect(renderMarkdown(view)).toContain('No replay rule: runs are independent samples.');
  });
});

describe('the network control in every rendering', () => {
  const metered = runs.map((r) => ({ ...r, webAttempts: r.agent.id === 'strong' ? 2 : null }));
  const closed = summarize(metered, { standardRunsPerTask: 1, controls: { runsPerTask: 1 } });
  const open = summarize(metered, { standardRunsPerTask: 1, controls: { runsPerTask: 1, network: 'model-api+web' } });

  it('names the closed web beside the suite, and says what web attempts count', () => {
    const table = renderTable(closed);
    expect(table).toMatch(/controls sha256:c0ffee {2}closed web {2}standard/);
    expect(table).toMatch(/^Closed web: the model API was the only network/m);
    expect(renderMarkdown(closed)).toContain('; closed web; standard 1 runs per task.');
    expect(buildJsonReport(closed, metered)).toMatchObject({ network: 'none' });
  });

  it('warns on top of the markdown and says it under the table when the web was let in', () => {
    expect(renderTable(open)).toMatch(/OPEN WEB \(model-api\+web\)/);
    expect(renderTable(open)).toMatch(/^Open web \(network: model-api\+web\)/m);
    expect(renderMarkdown(open)).toMatch(/^> \*\*Open web\*\* \(network: model-api\+web\)/);
    expect(buildJsonReport(open, metered).network).toBe('model-api+web');
  });

  it('counts web attempts per agent and per run in the JSON, null without a meter', () => {
    const json = buildJsonReport(closed, metered);
    expect(json.agents.find((a) => a.id === 'strong')!.webAttempts).toBe(20);
    expect(json.agents.find((a) => a.id === 'weak|pipe')!.webAttempts).toBeNull();
    expect(json.runs.find((r) => r.agent === 'strong')!.webAttempts).toBe(2);
  });
});

describe('the markdown task matrix', () => {
  it('shows solved out of runs per task and agent, with voids', () => {
    const text = renderMarkdown(view);
    expect(text).toContain('Solved runs by task:');
    const row = text.split('\n').find((l) => l.startsWith('| t01 |')) ?? '';
    // t01: strong solved, weak|pipe solved/failed per fixture, partial ran it
    expect(row.split(' | ').length).toBe(view.agents.length + 1);
    expect(text).toMatch(/\| t0\d \|.*\(1 void\)/);
  });
});

/** The lines of the first markdown table in `text` (the leaderboard). */
function firstTable(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end === -1 ? undefined : end);
}
