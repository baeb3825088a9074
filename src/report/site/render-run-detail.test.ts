import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../types.js';
import { summarize } from '../view/summarize.js';
import { renderChecks } from './render-checks.js';
import { renderPage } from './render-page.js';
import { DIFF_LINES_PER_PAGE, renderRunDetail } from './render-run-detail.js';
import { RUN_PAGE_CSS } from './run-page-css.js';
import type { TranscriptEntry } from '../../types.js';
import type { PrivateOrderDetail } from './site-input.js';

const EVIL = '<script>alert(1)</script>';

const run = (harness: string, extra: Partial<RunRecord> = {}): RunRecord => ({
  id: 'r1', suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't',
  agent: { id: harness === 'builtin' ? 'gold' : `${harness}:m`, harness, version: null, model: null, effort: null },
  replay: 0, seed: null, level: null, outcome: { kind: 'failed', reason: 'tests-failed', detail: `1 test failed ${EVIL}` }, agentSec: 12.5, gradeSec: 3.25,
  costUsd: null, tokensIn: null, tokensOut: null, linesAdded: 1, linesRemoved: 1, points: 0, maxPoints: 1,
  orders: [{ order: 1, points: 0, maxPoints: 1 }], runtime: {}, startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:16Z', ...extra,
});

const PATCH = 'diff --git a/src/math.mjs b/src/math.mjs\nindex 4a558d5..1f0f530 100644\n--- a/src/math.mjs\n+++ b/src/math.mjs\n@@ -1,4 +1,4 @@\n /** Adds two numbers. */\n export function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n';

const files = (order: number): PrivateOrderDetail['files'] => {
  const at = (file: string): string => `runs/r1/order-${order}/${file}`;
  return { prompt: at('prompt.md'), patch: at('change.patch'), agentLog: at('agent.log'), stream: at('stream.jsonl'), testOutput: at('grade/test-output.log'), checks: at('grade/checks.json') };
};

const order = (extra: Partial<PrivateOrderDetail> = {}): PrivateOrderDetail => ({
  files: files(extra.order ?? 1), order: 1, prompt: `Fix add() ${EVIL}`, patch: PATCH, agentLog: 'stderr of the CLI', testOutput: 'not ok 1 - adds', transcript: [], checks: [], session: null, ...extra,
});

const TRANSCRIPT: TranscriptEntry[] = [
  { kind: 'text', text: 'Let me look.' },
  { kind: 'tool-call', tool: 'Bash', summary: 'cat src/math.mjs', input: 'command: cat src/math.mjs' },
  { kind: 'tool-result', tool: 'Bash', output: Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n'), isError: false },
  { kind: 'tool-call', tool: 'Edit', summary: '/w/src/math.mjs', input: `file_path: /w/src/math.mjs\nold_string:\n  return a - b;\nnew_string:\n  ${EVIL}` },
  { kind: 'tool-result', tool: 'Edit', output: 'String not found', isError: true },
  { kind: 'error', message: 'API request failed (500); retry 1 of 10' },
  { kind: 'final', text: 'Done: fixed add().' },
];

describe('renderRunDetail', () => {
  it('tells the session: prompt, texts, tool calls with tool and command, results cut with a note, failures and errors labelled, the final answer', () => {
    const html = renderRunDetail(run('claude-code'), [order({ transcript: TRANSCRIPT })]);
    expect(html).toContain('<h3>Prompt</h3><pre class="prompt">Fix add() &lt;script&gt;alert(1)&lt;/script&gt;</pre>');
    expect(html).toContain('<p class="context">7 entries, 2 tool calls, a final answer.</p>');
    expect(html).toContain('<li class="tr-said"><div class="tr-label">agent</div><div class="tr-text">Let me look.</div></li>');
    // a shell call is its command alone; an edit also shows its input
    expect(html).toContain('<li class="tr-call"><div class="tr-label">tool call</div><div><code class="tr-tool">Bash</code> <code class="tr-summary">cat src/math.mjs</code></div></li>');
    expect(html).toContain('<code class="tr-tool">Edit</code> <code class="tr-summary">/w/src/math.mjs</code></div><pre>file_path: /w/src/math.mjs\nold_string:\n  return a - b;\nnew_string:\n  &lt;script&gt;');
    expect(html).toContain('line 40\n<span class="tr-cut">… cut: 60 more lines, ');
    expect(html).toContain('not shown (the whole text is in runs/r1/order-1/stream.jsonl in the results folder)</span>');
    expect(html).not.toContain('line 41');
    expect(html).toContain('<li class="tr-result tr-failed"><div class="tr-label">tool failed: Edit</div><pre>String not found</pre></li>');
    expect(html).toContain('<li class="tr-error"><div class="tr-label">error</div><div class="tr-text">API request failed (500); retry 1 of 10</div></li>');
    expect(html).toContain('<li class="tr-final"><div class="tr-label">final answer</div><div class="tr-text">Done: fixed add().</div></li>');
    expect(html).not.toContain(EVIL);
  });

  it('says a built-in agent has no transcript and shows its agent.log instead', () => {
    const html = renderRunDetail(run('builtin'), [order({ transcript: null, agentLog: `applied gold.patch ${EVIL}` })]);
    expect(html).toContain('gold is a built-in agent: it prints no session stream, so there is no transcript. Its output (agent.log):</p><pre>applied gold.patch &lt;script&gt;');
    expect(html).not.toContain('class="transcript"');
    expect(html).toContain('<h3>Prompt</h3><pre class="prompt">Fix add()');
  });

  it('says when a model agent left no stream', () => {
    expect(renderRunDetail(run('codex'), [order({ transcript: null })])).toContain('No session stream was recorded for this order (no session ran).');
  });

  it('draws the change as a diff and the test results, the run\'s times, and per order agent time, exit, requests and tokens', () => {
    const requests = [
      { seq: 1, model: 'claude-sonnet-4-5', status: 200, failure: null, latencyMs: 120.4, input: 1230, output: 40 },
      { seq: 2, model: 'claude-sonnet-4-5', status: 500, failure: null, latencyMs: 9, input: null, output: null },
    ];
    const session = { durationMs: 12_500, exitCode: 0, timedOut: false, tokensIn: 1230, tokensOut: 40, error: null, requests };
    const html = renderRunDetail(run('claude-code'), [order({ session, checks: [{ id: 'adds', expected: 'fail-to-pass', status: 'fail' }] })]);
    expect(html).toContain('<tr class="diff-add"><td class="diff-ln"></td><td class="diff-ln">3</td><td class="diff-mark">+</td><td class="diff-code">  return a + b;</td></tr>');
    expect(html).toContain('<strong>0 of 1 passed</strong>');
    expect(html).toContain('Started 2026-01-01T00:00:00Z, finished 2026-01-01T00:00:16Z; agent time 12.5s, grading time 3.3s over all orders');
    expect(html).toContain('<tr><td class="num">1</td><td class="num">12.5s</td><td>0</td><td class="num">2 (1 failed)</td><td class="num">1.23k / 40</td></tr>');
    expect(html).toContain('<summary>model requests (2)</summary>');
    expect(html).toContain('<tr><td class="num">1</td><td>claude-sonnet-4-5</td><td>200</td><td class="num">120 ms</td><td class="num">1.23k / 40</td></tr>');
    expect(html).toContain('<h2>Outcome detail</h2><pre>1 test failed &lt;script&gt;');
    expect(html).toContain('<style>');
  });

  it('shares one diff budget among the orders of a page', () => {
    const big = (path: string, n: number): string =>
      `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${n} @@\n${Array.from({ length: n }, (_, i) => `+${i}`).join('\n')}\n`;
    const html = renderRunDetail(run('builtin', { orders: [{ order: 1, points: 0, maxPoints: 1 }, { order: 2, points: 0, maxPoints: 1 }] }), [
      order({ patch: big('a.txt', 1499) }),
      order({ order: 2, patch: big('a.txt', 1499) + big('b.txt', 10) }),
    ]);
    expect(DIFF_LINES_PER_PAGE).toBe(2000);
    expect(html).toContain('<strong>Diff cut:</strong> 500 of 1511 diff lines drawn, 1011 not shown. The whole change is runs/r1/order-2/change.patch in the results folder.');
    expect(html).toContain('<li><code>b.txt</code>');
  });
});

describe('a silent session', () => {
  const session = { durationMs: 600_000, exitCode: null, timedOut: true, tokensIn: null, tokensOut: null, error: null, requests: [] };

  it('says what is known: how long it ran, how it ended, that no request reached the proxy, and its processes at the kill', () => {
    const html = renderRunDetail(run('opencode'), [order({ transcript: null, agentLog: '', session, atKill: `killed at its wall clock (600 s); its processes then:\n12 S ep_poll opencode run ${EVIL}` })]);
    expect(html).toContain('<strong>This session left no transcript and no output.</strong> It ran 10m 00s and was killed at its wall clock. No model request reached the metering proxy: the CLI never asked the model.');
    expect(html).toContain(`<pre>killed at its wall clock (600 s); its processes then:\n12 S ep_poll opencode run &lt;script&gt;alert(1)&lt;/script&gt;</pre>`);
  });

  it('names its last model request when there was one, and says when the process state was not recorded', () => {
    const requests = [{ seq: 1, model: 'm', status: 200, failure: null, latencyMs: 40, input: 1, output: 1 }, { seq: 2, model: 'm', status: null, failure: 'hang', latencyMs: 120_000, input: null, output: null }];
    const html = renderRunDetail(run('codex'), [order({ transcript: [], agentLog: '\n', session: { ...session, requests } })]);
    expect(html).toContain('Its last model request (#2 of 2, m) failed: hang after 120000 ms.');
    expect(html).toContain('What its processes were doing when it ended was not recorded.');
  });

  it('is not drawn for a session that printed something', () => {
    expect(renderRunDetail(run('codex'), [order({ transcript: TRANSCRIPT, session })])).not.toContain('left no transcript');
  });
});

describe('renderChecks', () => {
  it('counts per kind and status and lists failures first', () => {
    const html = renderChecks([
      { id: 'test/a.test.mjs > keeps zero', expected: 'pass-to-pass', status: 'pass' },
      { id: 'test/a.test.mjs > adds', expected: 'fail-to-pass', status: 'fail' },
      { id: 'test/a.test.mjs > big', expected: 'fail-to-pass', status: 'pass' },
      { id: `gen ${EVIL}`, expected: 'generated', status: 'missing' },
    ]);
    expect(html).toContain('<strong>2 of 4 passed</strong> (F→P 1/2 passed; P→P 1/1 passed; generated 0/1 passed; 1 fail, 1 missing, 2 pass).');
    const ids = [...html.matchAll(/<tr><td><code>([^<]*)<\/code><\/td><td>([^<]*)<\/td><td class="status-(\w+)">/g)].map((m) => [m[1], m[2], m[3]]);
    expect(ids).toEqual([
      ['test/a.test.mjs &gt; adds', 'F→P', 'fail'],
      ['gen &lt;script&gt;alert(1)&lt;/script&gt;', 'generated', 'missing'],
      ['test/a.test.mjs &gt; big', 'F→P', 'pass'],
      ['test/a.test.mjs &gt; keeps zero', 'P→P', 'pass'],
    ]);
  });

  it('shows a failing test\'s message under its id, escaped', () => {
    const html = renderChecks([
      { id: 'tests/test_calc.py::test_adds', expected: 'fail-to-pass', status: 'fail', message: `AssertionError: assert 1 == 3 ${EVIL}` },
      { id: 'tests/test_calc.py::test_zero', expected: 'pass-to-pass', status: 'pass' },
    ]);
    expect(html).toContain('<code>tests/test_calc.py::test_adds</code><span class="check-message">AssertionError: assert 1 == 3 &lt;script&gt;alert(1)&lt;/script&gt;</span>');
    expect(html).toContain('<code>tests/test_calc.py::test_zero</code></td>');
  });

  it('says when an order has no test results', () => {
    expect(renderChecks([])).toContain('No test results stored for this order');
  });
});

describe('the run page styles', () => {
  it("use no colour of their own: only the site's variables, which light, dark and print each set", () => {
    // a fixed light colour (dark grey text, a pale line background) is unreadable on the dark page
    expect(RUN_PAGE_CSS).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
    const used = [...new Set([...RUN_PAGE_CSS.matchAll(/var\((--[a-z-]+)\)/g)].map((m) => m[1]!))];
    expect(used).toEqual(expect.arrayContaining(['--muted', '--failed', '--add-bg', '--del-bg', '--hunk-bg']));
    const view = summarize([], { standardRunsPerTask: 1, controls: {} });
    const css = /<style>([\s\S]*?)<\/style>/.exec(renderPage({ title: 't', body: '', root: '', view, generatedAt: 'now', isPrivate: true }))![1]!;
    const blocks = {
      light: /^:root\{([^}]*)\}/m.exec(css)![1]!,
      dark: /prefers-color-scheme:dark\)\{:root\{([^}]*)\}/.exec(css)![1]!,
      print: /@media print\{\s*:root\{([^}]*)\}/.exec(css)![1]!,
    };
    for (const [scheme, block] of Object.entries(blocks)) {
      expect(used.filter((v) => !block.includes(`${v}:`)), scheme).toEqual([]);
    }
  });
});
