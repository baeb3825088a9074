import { describe, expect, it } from 'vitest';
import type { AgentInfo, Outcome, RunRecord } from '../../types.js';
import { summarize } from '../view/summarize.js';
import { columnsForView } from './columns-for-view.js';
import { DROP_ORDER, fitLeaderboard, KEPT_COLUMNS, MODEL_DROP_ORDER } from './fit-leaderboard.js';
import { renderTable } from './render-table.js';

const SOLVED: Outcome = { kind: 'solved' };
const FAILED: Outcome = { kind: 'failed', reason: 'tests-failed', detail: '1 of 3 tests failed' };
const VOID: Outcome = { kind: 'void', reason: 'infra-error' };
const HASH = 'a1ab1840822873fe4d922b9b49cd26e8ab1d340ebe10b202ca0b2d7be4c7857e';

function agent(id: string, extra: Partial<AgentInfo> = {}): AgentInfo {
  return { id, harness: 'builtin', version: null, model: null, effort: null, ...extra };
}

function run(who: AgentInfo, t: number, replay: number, outcome: Outcome, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    id: `${who.id}/t${t}/${replay}`, suiteId: 'demo', suiteHash: HASH, controlsDigest: HASH.replace('a1', 'c0'),
    task: `t${t}`, agent: who, replay, seed: null, level: null, outcome, agentSec: 61, gradeSec: 2,
    costUsd: 0.25, tokensIn: 120_000, tokensOut: 3_000, linesAdded: 10, linesRemoved: 2, points: 0, maxPoints: 0,
    orders: [], runtime: {}, startedAt: '2025-01-01T00:00:00Z', finishedAt: '2025-01-01T00:02:00Z', ...extra,
  };
}

// Model agents whose ids say harness, model and effort; and a named one whose id says nothing.
const said = agent('claude-code:claude-opus-4-5@high', { harness: 'claude-code', version: '2.1.3', model: 'claude-opus-4-5', effort: 'high' });
const named = agent('fast-reviewer', { harness: 'codex', version: '0.171.0', model: 'gpt-5.5', effort: 'low' });
const runsOf = (...who: AgentInfo[]): RunRecord[] =>
  who.flatMap((a) => [0, 1, 2].flatMap((t) => [0, 1].map((r) => run(a, t, r, t === 2 && r === 1 ? VOID : t === 0 ? SOLVED : FAILED))));
const plain = summarize(runsOf(said, named), { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });
const replayed = summarize(runsOf(said, named), {
  standardRunsPerTask: 2,
  controls: { runsPerTask: 2, replayRule: { replays: 2, allowedDrift: 0 }, voidLimit: 2 },
});
const onlySaid = summarize(runsOf(said), { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });

const headersAt = (view: typeof plain, width: number | undefined) => fitLeaderboard(columnsForView(view), view.agents, width, 2);

describe('fitLeaderboard', () => {
  it('knows every column a view can have: each always stays or has its place in the drop order', () => {
    for (const column of columnsForView(replayed)) {
      expect([...KEPT_COLUMNS, ...DROP_ORDER]).toContain(column.header);
      expect([...KEPT_COLUMNS, ...MODEL_DROP_ORDER]).toContain(column.header);
    }
    expect([...MODEL_DROP_ORDER].sort()).toEqual([...DROP_ORDER].sort());
  });

  it('keeps every column with its full header without a width; on a screen where it fits, all but those that say nothing', () => {
    const all = columnsForView(plain).map((c) => c.header);
    expect(headersAt(plain, undefined)).toMatchObject({ headers: all, dropped: [], silent: [] });
    expect(headersAt(plain, 1000)).toMatchObject({ headers: all.filter((h) => h !== 'points'), dropped: [], silent: ['points'] });
  });

  it.each([
    // columns with only `–` (points here) and what the id already says (model@effort, harness) say nothing: they go first, on a
    // screen always; in a model bake time, tokens and cost per fix stay longest
    { name: 'said by the id, 120', view: onlySaid, width: 120, silent: ['harness', 'model@effort', 'points'], dropped: ['void as failed', 'median lines'] },
    { name: 'said by the id, 80', view: onlySaid, width: 80, silent: ['harness', 'model@effort', 'points'], dropped: ['void as failed', 'median lines', 'version', 'runs', 'solved', 'tokens out', 'tokens in'] },
    // two agents that ran as many runs: runs says nothing new and leaves first; harness and model are news, so they stay longer
    { name: 'named agent, 120', view: plain, width: 120, silent: ['points'], dropped: ['runs', 'void as failed', 'median lines', 'version', 'harness', 'model@effort'] },
    { name: 'named agent, 80', view: plain, width: 80, silent: ['points'], dropped: ['runs', 'void as failed', 'median lines', 'version', 'harness', 'model@effort', 'solved', 'tokens out', 'tokens in'] },
    { name: 'replay rule, 80', view: replayed, width: 80, silent: ['points'], dropped: ['runs', 'void as failed', 'median lines', 'version', 'harness', 'replays agree', 'void tasks', 'tasks solved', 'model@effort', 'solved', 'tokens out', 'tokens in'] },
  ])('$name: leaves out $dropped', ({ view, width, dropped, silent }) => {
    const fit = headersAt(view, width);
    expect(fit.dropped).toEqual(dropped);
    expect(fit.silent).toEqual(silent);
    for (const header of ['#', 'agent', 'share [95% CI]']) expect(fit.headers).toContain(header);
  });

  it('in a bake without model agents, keeps runs and the derived numbers longer than cost and tokens (which say nothing there)', () => {
    const builtins = summarize([...runsOf(agent('gold'), agent('noop'))].map((r) => ({ ...r, tokensIn: null, tokensOut: null, costUsd: null })), { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });
    const fit = headersAt(builtins, 100);
    expect(fit.silent).toEqual(['harness', 'version', 'model@effort', 'points', 'tokens in', 'tokens out', 'cost/fix']);
    expect(fit.headers).toEqual(['#', 'agent', 'runs', 'solved', 'share [95% CI]', 'void as failed', 'void', 'median time', 'median lines']);
  });

  it('shows web attempts for metered agents, and lets the column leave first when every count is 0', () => {
    const metered = (count: number) => summarize(runsOf(said, named).map((r) => ({ ...r, webAttempts: r.agent === named ? count : 0 })), { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });
    expect(columnsForView(plain).map((c) => c.header)).not.toContain('web attempts');
    expect(headersAt(metered(0), undefined).headers).toContain('web attempts');
    // all 0 says nothing: it leaves on a screen before any column is dropped for width, and is named as such
    expect(headersAt(metered(0), 150).silent).toContain('web attempts');
    expect(headersAt(metered(0), 150).headers).not.toContain('web');
    const seen = headersAt(metered(6), 150);
    expect(seen.headers).toContain('web');
    expect(seen.rows.map((row) => row[seen.headers.indexOf('web')])).toEqual(['0', '36']);
  });

  it('uses short headers once the full table does not fit', () => {
    expect(headersAt(onlySaid, 150).headers).toEqual(expect.arrayContaining(['void=fail', 'time', 'lines', 'tok in', 'tok out']));
    expect(headersAt(plain, 150).headers).toContain('model');
  });

  it('cuts agent ids with … when the columns that always stay do not fit, never below 8 characters', () => {
    const fit = headersAt(onlySaid, 30);
    expect(fit.headers).toEqual(['#', 'agent', 'share [95% CI]']);
    expect(fit.rows[0]![1]).toBe('claude-…');
  });
});

describe('renderTable with a width', () => {
  it('is the full table when everything fits, but for the columns that say nothing, named under it', () => {
    const text = renderTable(replayed, { width: 1000, wideHint: 'x' });
    const header = (t: string): string => t.split('\n').find((line) => /^\s*#/.test(line))!;
    expect(header(text)).toBe(header(renderTable(replayed)).replace(/ {2}points(?= )/, ''));
    expect(text).toContain('not shown (nothing to show for these agents): points\n');
    expect(text).not.toContain('left out to fit');
  });

  it.each([60, 80, 100, 120])('has no line longer than %i characters, with 12-character hashes and a line naming what was left out', (width) => {
    for (const view of [plain, replayed, onlySaid]) {
      const text = renderTable(view, { width, wideHint: '--wide shows every column' });
      for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(width);
      expect(text).toContain(`hash ${HASH.slice(0, 12)}`);
      expect(text).not.toContain(HASH);
      expect(text).toMatch(new RegExp(`left out to fit ${width} columns: [a-z@/ ,\\n]+;\\s+--wide\\s+shows\\s+every\\s+column`));
    }
  });

  it('keeps full hashes and every column without a width', () => {
    const text = renderTable(plain);
    expect(text).toContain(`hash ${HASH}`);
    expect(text).not.toContain("left out to fit");
    expect(text.split('\n').some((line) => line.length > 150)).toBe(true);
  });
});
