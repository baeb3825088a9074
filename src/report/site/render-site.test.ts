import { describe, expect, it } from 'vitest';
import type { AgentInfo, Outcome, RunRecord } from '../../types.js';
import { comparePaired } from '../view/compare-paired.js';
import { summarize } from '../view/summarize.js';
import { escapeHtml, slugify } from './escape-html.js';
import { renderSite } from './render-site.js';
import type { SiteSuite } from './site-input.js';

/** Where an order's files are in a results folder (as the store lays them out). */
const filesOf = (runId: string) => {
  const at = (file: string): string => `runs/${runId}/order-1/${file}`;
  return { prompt: at('prompt.md'), patch: at('change.patch'), agentLog: at('agent.log'), stream: at('stream.jsonl'), testOutput: at('grade/test-output.log'), checks: at('grade/checks.json') };
};

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

const TEST_CONTROLS = {
  runsPerTask: 1, sessionWallClockSec: 600, setupWallClockSec: 900, setupIdleSec: 300, testWallClockSec: 300, memoryMb: 4096, pids: 1024,
  cpus: 2, tmpMb: 1024, homeMb: 512, diskMb: 2048, maxChangeMb: 64, seeds: [1], level: 1, timeoutIsVoid: false,
};

/** The suite of the runs: each task a one-order JS bug graded by hidden tests. */
function suiteOf(runs: readonly RunRecord[]): SiteSuite {
  const ids = [...new Set(runs.map((r) => r.task))].sort();
  const tasks = ids.map((id) => ({ id, kind: 'bug' as const, language: 'js', grading: 'tests' as const, orders: 1, knownFailures: 0, failToPass: 1, passToPass: 2, origin: null, public: null }));
  return { id: 'demo', hash: 'sha256:aaaa', controls: TEST_CONTROLS, tasks, methodology: null };
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
    ? new Map(runs.map((r) => [r.id, [{ order: 1, files: filesOf(r.id), prompt: `PROMPT ${EVIL}`, patch: `+PATCH ${EVIL}`, agentLog: 'AGENT-LOG', testOutput: 'TEST-OUTPUT', transcript: null, checks: [{ id: `HIDDEN-TEST ${EVIL}`, expected: 'fail-to-pass' as const, status: 'fail' as const }], session: null }]]))
    : undefined;
  return renderSite({ suite: suiteOf(runs), view, runs, comparison, generatedAt: 'now', ...(detail ? { privateDetail: detail } : {}) });
}

describe('renderSite', () => {
  it('numbers replays as report.json does: from 0', () => {
    const runs = [run('a', 't1', SOLVED, { id: 'r-first' }), run('a', 't1', FAILED, { id: 'r-second', replay: 1 })];
    const view = summarize(runs, { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });
    const files = renderSite({ suite: suiteOf(runs), view, runs, comparison: null, generatedAt: 'now' });
    expect(files.get('runs/task-1-a-0.html')).toContain('<th>replay (counted from 0)</th><td>0</td>');
    expect(files.get('runs/task-1-a-1.html')).toContain('<th>replay (counted from 0)</th><td>1</td>');
    const agentPage = files.get('agents/a.html')!;
    expect(agentPage).toContain('<a class="run-link" href="../runs/task-1-a-0.html">task 1, replay 0</a><span class="sub">task 1 — bug, JavaScript</span></td>');
    expect(agentPage).toContain('<a class="run-link" href="../runs/task-1-a-1.html">task 1, replay 1</a><span class="sub">task 1 — bug, JavaScript</span></td>');
  });

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
    expect(files.get('agents/strong.html')).toContain('href="../runs/task-1-strong-0.html"');
    expect(files.get('compare.html')).toContain('strong');
  });

  it('gives pass@k and pass^k for k up to the runs per task on the agent page', () => {
    const runs = [run('a', 't1', SOLVED, { id: 'r1' }), run('a', 't1', FAILED, { id: 'r2', replay: 1 }), run('a', 't2', SOLVED, { id: 'r3' }), run('a', 't2', SOLVED, { id: 'r4', replay: 1 })];
    const page = renderSite({ suite: suiteOf(runs), view: summarize(runs, { standardRunsPerTask: 2, controls: { runsPerTask: 2 } }), runs, comparison: null, generatedAt: 'now' }).get('agents/a.html')!;
    // t1: 1 of 2 solved, t2: 2 of 2; pass@1 = (0.5 + 1) / 2, pass@2 = (1 + 1) / 2, pass^2 = (0 + 1) / 2
    expect(page).toContain('<tr><td class="num">1</td><td class="num">75.0%</td><td class="num">75.0%</td><td class="num">2</td></tr>');
    expect(page).toContain('<tr><td class="num">2</td><td class="num">100.0%</td><td class="num">50.0%</td><td class="num">2</td></tr>');
  });

  it('shows tied agents as tied, on the index and on their pages', () => {
    const runs = [run('a', 't1', SOLVED), run('a', 't2', FAILED), run('b', 't1', FAILED), run('b', 't2', SOLVED), run('c', 't1', FAILED), run('c', 't2', FAILED)];
    const files = renderSite({ suite: suiteOf(runs), view: summarize(runs, { standardRunsPerTask: 1, controls: { runsPerTask: 1 } }), runs, comparison: null, generatedAt: 'now' });
    const ranks = [...files.get('index.html')!.matchAll(/<tr data-agent="([^"]+)"[^>]*>\s*<td[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]]);
    expect(ranks).toEqual([['a', '=1'], ['b', '=1'], ['c', '3']]);
    expect(files.get('agents/b.html')).toContain('<td>=1 (tied)</td>');
    expect(files.get('agents/c.html')).toMatch(/<th>rank<\/th><td>3<\/td>/);
  });

  it('names tasks only by label on the public site, in every page and file name, and adds their ids on the private one', () => {
    const [told, untold] = ['fix-login-race-in-session-store', 'leaky-cache-eviction-order'];
    const runs = [
      run('a', told, SOLVED), run('a', untold, { kind: 'failed', reason: 'tests-failed', detail: `${untold}::evicts oldest first` }),
      run('b', told, FAILED), run('b', untold, { kind: 'void', reason: 'setup-failed', detail: `setup of ${untold} failed` }),
    ];
    const base = suiteOf(runs);
    const suite = { ...base, tasks: base.tasks.map((t) => (t.id === told ? { ...t, language: 'python', public: { title: 'Logins race', summary: 'Two logins at once both win.' } } : t)) };
    const view = summarize(runs, { standardRunsPerTask: 1, controls: { runsPerTask: 1 } });
    const comparison = comparePaired(runs, { a: 'a', b: 'b', controls: { runsPerTask: 1 } });
    const detail = new Map(runs.map((r) => [r.id, [{ order: 1, files: filesOf(r.id), prompt: null, patch: null, agentLog: null, testOutput: null, transcript: null, checks: [], session: null }]]));
    const pub = renderSite({ suite, view, runs, comparison, generatedAt: 'now' });
    const priv = renderSite({ suite, view, runs, comparison, generatedAt: 'now', privateDetail: detail });

    for (const [file, html] of pub) {
      for (const id of [told, untold, ...runs.map((r) => r.id)]) {
        expect(file).not.toContain(id);
        expect(html, file).not.toContain(id);
      }
    }
    expect(pub.get('matrix.html')).toContain('<th><span class="task" title="Two logins at once both win.">task 1 — Logins race (bug, Python)</span></th>');
    expect(pub.get('matrix.html')).toContain('<th>task 2 — bug, JavaScript</th>');
    expect(pub.get('compare.html')).toContain('<td>task 2 — bug, JavaScript</td>');
    expect(pub.get('agents/b.html')).toContain('<li>task 2 — bug, JavaScript: setup-failed</li>');
    expect(pub.get('runs/task-1-a-0.html')).toContain('<p class="task-summary">Two logins at once both win.</p>');
    expect(pub.get('runs/task-1-a-0.html')).toContain('<title>Run task-1-a-0 (task 1 — Logins race (bug, Python), a)</title>');
    expect([...pub.keys()].filter((f) => f.startsWith('runs/')).sort()).toEqual(['runs/task-1-a-0.html', 'runs/task-1-b-0.html', 'runs/task-2-a-0.html', 'runs/task-2-b-0.html']);

    const all = [...priv.values()].join('\n');
    expect(all).toContain(`task 1 — Logins race (bug, Python)</span> <code>${told}</code>`);
    expect(all).toContain(`task 2 — bug, JavaScript <code>${untold}</code>`);
    expect([...priv.keys()].filter((f) => f.startsWith('runs/')).sort()).toEqual(runs.map((r) => `runs/${r.id}.html`).sort());
  });

  it('puts no external URL anywhere and no script or style from elsewhere', () => {
    for (const [file, html] of site(true)) {
      expect(html, file).not.toMatch(/https?:\/\//i);
      expect(html, file).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
      expect(html, file).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}/i);
    }
  });

  it('keeps outcome details, prompts, changes, test results and logs out of the public site and puts them in the private one', () => {
    const pub = [...site().values()].join('\n');
    for (const secret of ['SECRET', 'PATCH', 'PROMPT', 'HIDDEN-TEST', 'AGENT-LOG', 'TEST-OUTPUT']) expect(pub).not.toContain(secret);
    const priv = [...site(true).values()].join('\n');
    for (const secret of ['SECRET', '+PATCH', 'PROMPT', 'HIDDEN-TEST', 'AGENT-LOG', 'TEST-OUTPUT']) expect(priv).toContain(secret);
  });

  it('says "no cost data" in the cost chart for agents without cost, and draws a point per agent with data', () => {
    const index = site().get('index.html')!;
    expect(index).toContain('no cost data: middle, weak&lt;b&gt;');
    expect(index.match(/<circle/g)?.length).toBe(1 + 3);
  });

  it('names the model API and price source on every page, and marks a scripted dry run as one', () => {
    const runs = [run('m', 't1', SOLVED, { runtime: { sandbox: 'bwrap', upstream: 'scripted:gold', prices: 'catalog 1.0' } })];
    const view = summarize(runs, { standardRunsPerTask: 1 });
    for (const [file, html] of renderSite({ suite: suiteOf(runs), view, runs, comparison: null, generatedAt: 'now' })) {
      expect(html, file).toContain('<dt>model API</dt><dd>scripted:gold</dd>');
      expect(html, file).toContain('catalog 1.0');
      expect(html, file).toMatch(/class="warn">Dry run: model agents answered by bakeoff&#39;s scripted model/);
    }
    expect(site().get('index.html')).not.toContain('model API');
  });

  it('says on every page whether the web was closed or open, and lists on a model agent\'s page the tools withheld and its web attempts', () => {
    const webTools = { names: ['WebSearch', 'WebFetch'], switch: '--disallowedTools WebSearch,WebFetch' };
    const model = { ...agent('claude-code:m'), harness: 'claude-code', model: 'm', webTools };
    const runs = [run('claude-code:m', 't1', SOLVED, { agent: model, webAttempts: 4, runtime: { sandbox: 'bwrap', upstream: 'vendor', prices: 'catalog' } })];
    for (const network of ['none', 'model-api+web'] as const) {
      const controls = { runsPerTask: 1, network };
      const view = summarize(runs, { standardRunsPerTask: 1, controls });
      const files = renderSite({ suite: { ...suiteOf(runs), controls: { ...suiteOf(runs).controls, network } }, view, runs, comparison: null, generatedAt: 'now' });
      for (const [file, html] of files) {
        expect(html, file).toContain(network === 'none' ? '<dt>network</dt><dd>closed web (provider-run tools and URL inputs withheld)</dd>' : '<p class="warn"><strong>Open web:</strong>');
      }
      const page = [...files].find(([file]) => file.startsWith('agents/'))![1];
      if (network === 'none') {
        expect(page).toContain('<th>tools withheld</th><td>its own WebSearch, WebFetch, turned off with --disallowedTools WebSearch,WebFetch; every provider-run tool');
        expect(page).toContain('<th>web attempts</th><td>4 (withheld or refused)</td>');
      } else expect(page).toContain('<th>web tools</th><td>open web: its own WebSearch, WebFetch kept on');
    }
  });

  it('puts every table in a named, focusable scroll region, with column headers scoped', () => {
    for (const [file, html] of site(true)) {
      const tables = [...html.matchAll(/(<div [^>]*>)?\s*<table\b([^>]*)>(<caption>)?/g)];
      expect(tables.length, file).toBeGreaterThan(0);
      for (const [, region = '', attrs = '', caption] of tables) {
        for (const attr of ['class="scroll"', 'tabindex="0"', 'role="region"']) expect(region, file).toContain(attr);
        expect(region, file).toMatch(/aria-label="[^"]+"/);
        expect(/aria-label="[^"]+"/.test(attrs) || caption !== undefined, `${file}: a table with neither aria-label nor caption`).toBe(true);
      }
      expect(html, file).not.toMatch(/<thead>(?:(?!<\/thead>).)*<th(?![^>]*scope=)[\s>]/s);
    }
    const agentPage = site().get('agents/strong.html')!;
    expect(agentPage).toContain('role="region" aria-label="Runs"><table class="runs" aria-label="Runs">');
  });

  it('sorts the leaderboard with buttons in its headers, rank ascending at first, and draws each share with its interval', () => {
    const index = site().get('index.html')!;
    expect(index).toContain('<th scope="col" class="num" aria-sort="ascending"><button type="button" class="sort" data-sort="rank">rank</button></th>');
    for (const header of ['share [95% CI]', 'solved', 'tokens in', 'tokens out', 'cost per fix', 'median time', 'median lines']) {
      expect(index).toContain(`<button type="button" class="sort" data-sort="${escapeHtml(header)}">`);
    }
    expect([...index.matchAll(/ aria-sort="/g)]).toHaveLength(1);
    expect(index).toMatch(/<span class="share-text">100\.0% \[[\d.]+–100\.0\]<\/span><svg class="sharebar"[^>]*aria-hidden="true"/);
  });

  it('draws time and lines per run on the agent page, with their text equivalent', () => {
    const page = site().get('agents/strong.html')!;
    expect(page).toContain('<figcaption>time per run</figcaption>');
    expect(page).toContain('<p class="summary">2 runs; min 10.0s, median 10.0s, max 10.0s</p>');
    expect(page).toContain('<p class="summary">2 runs; min 1, median 1, max 1</p>');
  });

  it("gives a model agent's tokens by class, its cost and its requests per run on its page, and says a built-in agent has none", () => {
    const model: AgentInfo = { id: 'claude-code:sonnet', harness: 'claude-code', version: '2.1', model: 'sonnet', effort: null };
    const usage = (input: number, requests: number) => ({ inputTokens: input, cacheReadTokens: 600, cacheWriteTokens: 100, outputTokens: 50, reasoningTokens: 20, requests });
    const runs = [
      run('x', 't1', SOLVED, { agent: model, costUsd: 0.02, usage: usage(1000, 3), runtime: { sandbox: 'bwrap', upstream: 'anthropic' } }),
      run('x', 't2', FAILED, { agent: model, costUsd: 0.01, usage: usage(2000, 5), runtime: { sandbox: 'bwrap', upstream: 'anthropic' } }),
      run('gold', 't1', SOLVED, { runtime: { sandbox: 'bwrap', upstream: 'anthropic' } }),
      run('gold', 't2', SOLVED, { runtime: { sandbox: 'bwrap', upstream: 'anthropic' } }),
    ];
    const view = summarize(runs, { standardRunsPerTask: 1, controls: { runsPerTask: 1 } });
    const costByClass = new Map([['claude-code:sonnet', { input: 0.0048, cacheRead: 0.00036, cacheWrite: 0.00075, output: 0.0015, source: 'catalog 1.0' }]]);
    const files = renderSite({ suite: suiteOf(runs), view, runs, comparison: null, generatedAt: 'now', costByClass });
    const page = [...files].find(([f]) => f.startsWith('agents/claude-code'))![1];
    expect(page).toContain('<caption>Tokens by class, all runs; cost at list price (catalog 1.0)</caption>');
    expect(page).toMatch(/<th scope="row">input, uncached<\/th><td class="num">1,600<\/td><td class="num">\$0\.00[0-9]+<\/td>/);
    expect(page).toContain('Model access: API key, through bakeoff&#39;s metering proxy (anthropic). Metered over 2 of 2 runs; cost $0.030 over 2 of 2 runs; model requests per run: median 4, 3–5.');
    expect(page).toContain('<th scope="row">input, uncached</th><td class="num">1,600</td>');
    expect(page).toContain('<th scope="row">input, cache read</th><td class="num">1,200</td>');
    expect(page).toContain('<th scope="row">output (reasoning included)</th><td class="num">100</td>');
    expect(files.get('agents/gold.html')).toContain('A built-in agent: no model, no tokens, no cost.');
  });

  it("states each agent's model access and settings on its page: API key, subscription with its plan, built-in, or settings not recorded", () => {
    const upstream = { sandbox: 'bwrap', upstream: 'vendor' };
    const api: AgentInfo = { id: 'api', harness: 'codex', version: '1', model: 'gpt', effort: 'low', settings: { args: ['-c', 'model_verbosity="low"'], env: ['A_SETTING', 'B_SETTING'] } };
    const plan: AgentInfo = { id: 'plan', harness: 'codex', version: '1', model: 'gpt', effort: 'low', auth: 'subscription', plan: 'plus', settings: { args: [], env: [] } };
    const old: AgentInfo = { id: 'old', harness: 'codex', version: '1', model: 'gpt', effort: 'low' };
    const usage = { inputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 5, reasoningTokens: 0, requests: 1 };
    const runs = [api, plan, old].map((a) => run(a.id, 't1', SOLVED, { agent: a, costUsd: 0.01, usage, runtime: upstream }));
    runs.push(run('gold', 't1', SOLVED, { runtime: upstream }));
    const view = summarize(runs, { standardRunsPerTask: 1, controls: { runsPerTask: 1 } });
    const files = renderSite({ suite: suiteOf(runs), view, runs, comparison: null, generatedAt: 'now' });
    const fact = (file: string, key: string): string => new RegExp(`<tr><th>${key}</th><td>([^<]*)</td></tr>`).exec(files.get(file)!)?.[1] ?? `no ${key} row`;
    expect(fact('agents/api.html', 'model access')).toBe('API key, metered');
    expect(fact('agents/api.html', 'settings')).toBe('args: -c &quot;model_verbosity=\\&quot;low\\&quot;&quot;; env: A_SETTING, B_SETTING (names only; values not recorded)');
    expect(files.get('agents/api.html')).toContain('Model access: API key, through bakeoff&#39;s metering proxy (vendor).');
    expect(fact('agents/plan.html', 'model access')).toBe('subscription (list-price equivalent cost; billed: subscription), plan plus');
    expect(fact('agents/plan.html', 'settings')).toBe('none: the harness&#39;s defaults');
    expect(files.get('agents/plan.html')).toContain('Model access: subscription (list-price equivalent cost; billed: subscription) on the plus plan, through bakeoff&#39;s metering proxy (vendor).');
    expect(files.get('agents/plan.html')).not.toContain('API key');
    expect(fact('agents/old.html', 'settings')).toBe('not recorded (runs made before bakeoff recorded settings)');
    expect(fact('agents/gold.html', 'model access')).toBe('none (no model)');
    expect(fact('agents/gold.html', 'settings')).toBe('– (a built-in agent)');
  });

  it('lets a narrow leaderboard break an agent id only between its parts, and the agent page name each run by task and replay', () => {
    const id = 'opencode:anthropic/claude-sonnet-4-5@high';
    const runs = [run(id, 't1', SOLVED), run(id, 't1', FAILED, { replay: 1 })];
    const view = summarize(runs, { standardRunsPerTask: 2, controls: { runsPerTask: 2 } });
    const files = renderSite({ suite: suiteOf(runs), view, runs, comparison: null, generatedAt: 'now' });
    expect(files.get('index.html')).toContain('>opencode:<wbr>anthropic/<wbr>claude-sonnet-4-5@<wbr>high</a>');
    const page = [...files].find(([f]) => f.startsWith('agents/'))![1];
    expect(page).toContain('<td class="run"><a class="run-link" href="../runs/task-1-opencode-anthropic-claude-sonnet-4-5-high-1.html">task 1, replay 1</a><span class="sub">task 1 — bug, JavaScript</span></td>');
  });

  it('makes unique slugs', () => {
    expect(slugify('a:b', new Set())).toBe('a-b');
    expect(slugify('a/b', new Set(['a-b']))).toBe('a-b-2');
    expect(slugify('..', new Set())).toBe('agent');
  });
});

describe('renderSite: failure anatomy and power', () => {
  const runs = [
    run('strong', 't1', SOLVED), run('strong', 't2', SOLVED),
    run('weak', 't1', FAILED, { id: 'weak-t1' }), run('weak', 't2', { kind: 'void', reason: 'upstream-error' }, { id: 'weak-t2' }),
  ];
  // a regression naming a hidden pass-to-pass test: a name only the private site may show
  const evidence = new Map([['weak-t1', {
    tests: { failToPass: { passed: 1, total: 1, errored: 0 }, passToPass: { passed: 0, total: 1, errored: 0, broken: ['HIDDEN-P2P'] }, generated: { passed: 0, total: 0, errored: 0 } },
    changeBytes: 40,
    sessions: null,
  }]]);
  const view = summarize(runs, { standardRunsPerTask: 1, controls: { runsPerTask: 1 }, evidence });
  const comparison = comparePaired(runs, { a: 'strong', b: 'weak', controls: { runsPerTask: 1 }, evidence });
  const files = (isPrivate: boolean) => renderSite({
    suite: suiteOf(runs), view, runs, comparison, generatedAt: 'now',
    ...(isPrivate ? { privateDetail: new Map(runs.map((r) => [r.id, []])) } : {}),
  });

  it('draws each agent\'s runs by class as a stacked bar on its page and on the leaderboard, with the counts as text', () => {
    const pub = files(false);
    const weak = pub.get('agents/weak.html')!;
    expect(weak).toContain('<h2>Why runs were not solved</h2>');
    expect(weak).toContain('aria-label="2 runs: regressions 1, model error 1"');
    expect(weak).toMatch(/<tr><th scope="row">model error<\/th><td class="num">1<\/td><td>model<\/td>/);
    expect(weak).toContain('<span class="sub">regressions (agent)</span>');
    expect(pub.get('agents/strong.html')).toContain('Every run solved.');
    expect(pub.get('index.html')).toContain('<td>agent 1, model 1</td>');
  });

  it('names the broken hidden test only on the private site\'s run page', () => {
    const [pub, priv] = [files(false), files(true)];
    for (const html of pub.values()) expect(html).not.toContain('HIDDEN-P2P');
    expect([...pub.values()].some((html) => html.includes('regressions (side: agent; cause pass-to-pass-broken)'))).toBe(true);
    expect(priv.get('runs/weak-t1.html')).toContain('regressions (side: agent; cause pass-to-pass-broken): 1 of 1 tests that passed before fail (HIDDEN-P2P)');
  });

  it('shows the minimum detectable difference and where the two agents\' failures differ on the compare page', () => {
    const compare = files(false).get('compare.html')!;
    expect(compare).toContain('<p class="power inside">With 1 task without a void and one run per task, no difference is detectable');
    expect(compare).toContain('strong and weak are not distinguishable at this size.</p>');
    expect(compare).toMatch(/<tr class="differs"><th scope="row">regressions<\/th><td>agent<\/td><td class="num">0<\/td><td class="num">1<\/td><td class="num">−1<\/td><\/tr>/);
  });
});
