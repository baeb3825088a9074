import { describe, expect, it } from 'vitest';
import type { AgentInfo, Outcome, RunRecord } from '../../types.js';
import { comparePaired } from '../view/compare-paired.js';
import { summarize } from '../view/summarize.js';
import { escapeHtml, slugify } from './escape-html.js';
import { renderSite } from './render-site.js';

const EVIL = '<script>alert("x")</script>&\'';

function agent(id: string): AgentInfo {
  return { id, harness: 'builtin', version: EVIL, model: null, effort: null };
}

let next = 0;
function run(agentId: string, task: string, outcome: Outcome, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    id: `run${next++}`, suiteId: 'demo', suiteHash: 'sha256:aaaa', controlsDigest: 'sha256:cccc', task, agent: agent(agentId),
    replay: 0, seed: null, level: null, outcome, agentSec: 10, gradeSec: 1, costUsd: null, tokensIn: null, tokensOut: null,
    linesAdded: 1, linesRemoved: 0, points: 1, maxPoints: 1, orders: [{ order: 1, points: 1, maxPoints: 1 }],
    runtime: { sandbox: 'bwrap' }, startedAt: '2025-01-01T00:00:00Z', finishedAt: '2025-01-01T00:00:10Z', ...extra,
  };
}

const SOLVED: Outcome = { kind: 'solved' };
const FAILED: Outcome = { kind: 'failed', reason: 'tests-failed', detail: `SECRET test name ${EVIL}` };

function site(privateDetail = false): Map<string, string> {
  const runs = [
    run('weak<b>', 't1', FAILED), run('weak<b>', 't2', FAILED),
    run('strong', 't1', SOLVED, { costUsd: 0.5 }), run('strong', 't2', SOLVED),
    run('middle', 't1', SOLVED), run('middle', 't2', FAILED),
  ];
  const controls = { runsPerTask: 1, note: EVIL };
  const view = summarize(runs, { standardRunsPerTask: 1, controls });
  const comparison = comparePaired(runs, { a: view.agents[0]!.agent.id, b: view.agents[1]!.agent.id, controls });
  const detail = privateDetail
    ? new Map(runs.map((r) => [r.id, [{ order: 1, patch: `+PATCH ${EVIL}`, agentLog: 'LOG', testOutput: 'OUT' }]]))
    : undefined;
  return renderSite({ view, runs, comparison, generatedAt: 'now', ...(detail ? { privateDetail: detail } : {}) });
}

describe('renderSite', () => {
  it('escapes every text it draws', () => {
    expect(escapeHtml(EVIL)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    for (const [file, html] of site(true)) {
      expect(html, file).not.toContain('<script>alert');
      expect(html, file).not.toContain('weak<b>');
    }
  });

  it('lists agents in rank order on the index page, each linking to its page', () => {
    const files = site();
    const index = files.get('index.html')!;
    const order = [...index.matchAll(/<tr data-agent="([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['strong', 'middle', 'weak&lt;b&gt;']);
    expect(index).toContain('href="agents/strong.html"');
    expect(files.has('agents/weak-b.html')).toBe(true);
    expect(files.get('agents/strong.html')).toContain('href="../runs/run');
    expect(files.get('compare.html')).toContain('strong');
  });

  it('puts no external URL anywhere and no script or style from elsewhere', () => {
    for (const [file, html] of site(true)) {
      expect(html, file).not.toMatch(/https?:\/\//i);
      expect(html, file).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
      expect(html, file).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    }
  });

  it('keeps outcome details, changes and logs out of the public site and puts them in the private one', () => {
    const pub = [...site().values()].join('\n');
    expect(pub).not.toContain('SECRET');
    expect(pub).not.toContain('PATCH');
    const priv = [...site(true).values()].join('\n');
    expect(priv).toContain('SECRET');
    expect(priv).toContain('+PATCH');
  });

  it('says "no cost data" in the cost chart for agents without cost, and draws a point per agent with data', () => {
    const index = site().get('index.html')!;
    expect(index).toContain('no cost data: middle, weak&lt;b&gt;');
    expect(index.match(/<circle/g)?.length).toBe(1 + 3);
  });

  it('names the model API and price source on every page, and marks a scripted dry run as one', () => {
    const runs = [run('m', 't1', SOLVED, { runtime: { sandbox: 'bwrap', upstream: 'scripted:gold', prices: 'catalog 1.0' } })];
    const view = summarize(runs, { standardRunsPerTask: 1 });
    for (const [file, html] of renderSite({ view, runs, comparison: null, generatedAt: 'now' })) {
      expect(html, file).toContain('<dt>model API</dt><dd>scripted:gold</dd>');
      expect(html, file).toContain('catalog 1.0');
      expect(html, file).toMatch(/class="warn">Dry run: model agents answered by bakeoff&#39;s scripted model/);
    }
    expect(site().get('index.html')).not.toContain('model API');
  });

  it('makes unique slugs', () => {
    expect(slugify('a:b', new Set())).toBe('a-b');
    expect(slugify('a/b', new Set(['a-b']))).toBe('a-b-2');
    expect(slugify('..', new Set())).toBe('agent');
  });
});
