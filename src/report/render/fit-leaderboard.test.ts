import { describe, expect, it } from 'vitest';
import type { AgentInfo, Outcome, RunRecord } from '../../types.js';
import { summarize } from '../view/summarize.js';
import { columnsForView } from './columns-for-view.js';
import { DROP_ORDER, fitLeaderboard, KEPT_COLUMNS } from './fit-leaderboard.js';
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
    for (const column of columnsForView(replayed)) expect([...KEPT_COLUMNS, ...DROP_ORDER]).toContain(column.header);
  });

  it('keeps every column with its full header when there is no width or when it fits', () => {
    const all = columnsForView(plain).map((c) => c.header);
    expect(headersAt(plain, undefined)).toMatchObject({ headers: all, dropped: [] });
    expect(headersAt(plain, 1000)).toMatchObject({ headers: all, dropped: [] });
  });

  it.each([
    // columns with only `–` (points here) leave first, then what the id already says (model@effort, harness)
    { name: 'said by the id, 120', view: onlySaid, width: 120, dropped: ['points', 'model@effort', 'harness', 'void as failed', 'tokens in'] },
    { name: 'said by the id, 80', view: onlySaid, width: 80, dropped: ['points', 'model@effort', 'harness', 'void as failed', 'tokens in', 'tokens out', 'median lines', 'version', 'median time', 'cost/fix'] },
    // a named agent beside it: harness and model are news, so the derived numbers leave first
    { name: 'named agent, 120', view: plain, width: 120, dropped: ['points', 'void as failed', 'tokens in', 'tokens out', 'median lines', 'version', 'harness'] },
    { name: 'named agent, 80', view: plain, width: 80, dropped: ['points', 'void as failed', 'tokens in', 'tokens out', 'median lines', 'version', 'harness', 'median time', 'cost/fix', 'model@effort'] },
    { name: 'replay rule, 80', view: replayed, width: 80, dropped: ['points', 'void as failed', 'tokens in', 'tokens out', 'median lines', 'version', 'harness', 'replays agree', 'median time', 'void tasks', 'tasks solved', 'cost/fix', 'model@effort'] },
  ])('$name: leaves out $dropped', ({ view, width, dropped }) => {
    const fit = headersAt(view, width);
    expect(fit.dropped).toEqual(dropped);
    for (const header of ['#', 'agent', 'share [95% CI]']) expect(fit.headers).toContain(header);
  });

  it('shows web attempts for metered agents, and lets the column leave first when every count is 0', () => {
    const metered = (count: number) => summarize(runsOf(said, named).map((r) => ({ ...r, webAttempts: r.agent === named ? count : 0 })), { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });
    expect(columnsForView(plain).map((c) => c.header)).not.toContain('web attempts');
    expect(headersAt(metered(0), undefined).headers).toContain('web attempts');
    expect(headersAt(metered(0), 150).dropped[0]).toBe('web attempts');
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
  it('is the full table when everything fits', () => {
    expect(renderTable(replayed, { width: 1000, wideHint: 'x' })).toBe(renderTable(replayed));
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
