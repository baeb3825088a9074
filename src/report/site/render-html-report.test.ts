import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../../types.js';
import { comparePaired } from '../view/compare-paired.js';
import { summarize } from '../view/summarize.js';
import { renderHtmlReport } from './render-html-report.js';
import { renderIndexBody } from './render-index-page.js';

const EVIL = '<script>alert(1)</script>';
const SOLVED: Outcome = { kind: 'solved' };
const FAILED: Outcome = { kind: 'failed', reason: 'tests-failed', detail: EVIL };

let next = 0;
function run(agentId: string, task: string, outcome: Outcome, finishedAt = '2025-01-01T00:00:10Z'): RunRecord {
  return {
    id: `run${next++}`, suiteId: 'demo', suiteHash: 'sha256:aaaa', controlsDigest: 'sha256:cccc', task,
    agent: { id: agentId, harness: 'builtin', version: null, model: null, effort: null },
    replay: 0, seed: null, level: null, outcome, agentSec: 10, gradeSec: 1, costUsd: null, tokensIn: null, tokensOut: null,
    linesAdded: 1, linesRemoved: 0, points: 1, maxPoints: 1, orders: [{ order: 1, points: 1, maxPoints: 1 }],
    runtime: { sandbox: 'bwrap' }, startedAt: '2025-01-01T00:00:00Z', finishedAt,
  };
}

const runs = [
  run('strong', 't1', SOLVED), run('strong', 't2', SOLVED, '2025-01-02T09:30:00Z'),
  run(EVIL, 't1', FAILED), run(EVIL, 't2', SOLVED),
];
const controls = { runsPerTask: 1 };
const view = summarize(runs, { standardRunsPerTask: 1, controls });

describe('renderHtmlReport', () => {
  it('is the site index page without its navigation, agent links or any URL', () => {
    const html = renderHtmlReport({ view, runs });
    const site = renderIndexBody(view, (id) => `agents/${id}.html`);
    expect(site).toContain('<a class="agent" href="agents/strong.html">strong</a>');
    // the same leaderboard rows, each agent's link turned into its name as text
    const rows = (page: string): string[] => [...page.matchAll(/<tr data-agent=[\s\S]*?<\/tr>/g)].map((m) => m[0]);
    expect(rows(html)).toEqual(rows(site).map((row) => row.replace(/<a class="agent" href="[^"]*">([\s\S]*?)<\/a>/g, '<span class="agent">$1</span>')));
    expect(rows(html)).toHaveLength(2);
    expect(html).toContain('<h1>Leaderboard: demo</h1>');
    expect(html).not.toMatch(/<nav|href=|src=|https?:/);
    expect(html).toContain('<meta name="generator" content="bakeoff report">');
    expect(html).toContain("<script>\ndocument.addEventListener('click'");
  });

  it('escapes every text, the agent id included', () => {
    const html = renderHtmlReport({ view, runs });
    expect(html).not.toContain(EVIL);
    expect(html).toContain('<tr data-agent="&lt;script&gt;alert(1)&lt;/script&gt;">');
  });

  it('gives the same bytes for the same runs: its time is when the last run finished', () => {
    const html = renderHtmlReport({ view, runs });
    expect(html).toContain('Made by bakeoff report from the runs finished by 2025-01-02T09:30:00Z.');
    expect(renderHtmlReport({ view: summarize([...runs].reverse(), { standardRunsPerTask: 1, controls }), runs: [...runs].reverse() })).toBe(html);
  });

  it('draws a paired comparison as the site compare page does', () => {
    const result = comparePaired(runs, { a: 'strong', b: EVIL, controls });
    if (!result.ok) throw new Error(result.reason);
    const html = renderHtmlReport({ view, runs, comparison: result.comparison });
    expect(html).toContain('<h1>Paired comparison: strong vs &lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('<tr><th>A wins</th><td>1</td></tr>');
    expect(html).toContain('<tr><td>t1</td><td>strong wins</td>'); // tasks by id, as the table names them; the result in words
    expect(html).not.toContain(EVIL);
    expect(html).not.toMatch(/<nav|href=|https?:/);
  });
});
