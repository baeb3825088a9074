import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSite, summarize } from '../report/index.js';
import type { AgentInfo, RunRecord } from '../types.js';
import { loadSuite } from '../suite/index.js';
import { siteSuiteOf } from './publish.js';

/*
 * The methodology page of the two bundled suites, written from their own suite.yaml, task.yaml,
 * lock and methodology.md: every point the page must state, with the values of their controls.
 * Both suites go through one table of points (`POINTS`), so neither can skip one.
 */

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples');

type Point =
  | 'tasks' | 'solved' | 'agents' | 'runs per task' | 'cost per fix' | 'time' | 'lines' | 'tokens' | 'limits and budgets'
  | 'replay rule and void limit' | 'void count' | 'what stays private' | 'compare like with like' | 'suite hash' | "owner's words";

const GOLD: AgentInfo = { id: 'gold', harness: 'builtin', version: null, model: null, effort: null };

/**
 * The page (its `<main>`, as text) of a suite whose every admitted task gold and `model` each ran
 * once: gold solves but for one void run, the model agent fails at $0.02 through the `vendor`
 * upstream.
 */
async function methodologyOf(name: string, model: AgentInfo): Promise<{ text: string; hash: string }> {
  const suite = await siteSuiteOf(await loadSuite(path.join(EXAMPLES, name)));
  const runs: RunRecord[] = [GOLD, model].flatMap((agent, a) =>
    suite.tasks.map((t, i): RunRecord => ({
      id: `r${a}-${i}`, suiteId: suite.id, suiteHash: suite.hash, controlsDigest: 'd'.repeat(64), task: t.id,
      agent, replay: 0, seed: t.grading === 'checks' ? 1 : null, level: t.grading === 'checks' ? 1 : null,
      outcome: agent === GOLD ? (i === 0 ? { kind: 'void', reason: 'setup-failed' } : { kind: 'solved' }) : { kind: 'failed', reason: 'tests-failed' },
      agentSec: 1, gradeSec: 1, costUsd: agent === GOLD ? null : 0.02, tokensIn: agent === GOLD ? null : 1000, tokensOut: agent === GOLD ? null : 100,
      linesAdded: 3, linesRemoved: 1, points: 1, maxPoints: 1, orders: [{ order: 1, points: 1, maxPoints: 1 }],
      runtime: { node: 'v20', sandbox: 'bwrap', ...(agent === GOLD ? {} : { upstream: 'vendor', prices: '@pydantic/genai-prices 0.1.0' }) },
      startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:05Z',
    })),
  );
  const view = summarize(runs, { standardRunsPerTask: suite.controls.runsPerTask, controls: suite.controls });
  const html = renderSite({ suite, view, runs, comparison: null, generatedAt: 'now' }).get('methodology.html')!;
  const main = html.slice(html.indexOf('<main>'), html.indexOf('</main>'));
  return { text: main.replace(/<wbr>/g, '').replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/\s+/g, ' '), hash: suite.hash };
}

/** What the page must say, point by point, for each bundled suite: a sentence (string) or pattern each. */
const POINTS: Readonly<Record<Point, Readonly<Record<'starter' | 'calibration', readonly (string | RegExp)[]>>>> = {
  tasks: {
    starter: [
          'The suite starter has 4 admitted tasks: 3 bug fixes and 1 feature, in JavaScript (1), Python (1), Rust (1) and TypeScript (1).',
          'Where they come from: 4 written for the suite.',
          'Each task has one work order.',
          'Every task is graded by hidden tests the agent never sees.',
          /fixed the tests every run must pass: \d+ fail-to-pass tests .* and \d+ pass-to-pass tests/,
          'No test is declared a known failure.',
        ],
    calibration: [
          'The suite calibration has 3 admitted tasks: 3 bug fixes and 0 features, in JavaScript (3).',
          'Where they come from: 3 written for the suite.',
          'The tasks hold 6 work orders in all; 3 tasks have more than one, run in sequence in the same workspace, each in a fresh agent session.',
          'Every task is graded by checks generated from a seed and level and run in a QuickJS sandbox; the agent never sees them.',
        ],
  },
  solved: {
    starter: ['A run is solved when every work order of its task passes.', 'every expected test passes.', 'there is no partial credit in the share', 'A session that runs out of time fails the run (session-timeout).'],
    calibration: ['A run is solved when every work order of its task passes.', 'every generated check passes', 'A session that runs out of time is void (unscored), by this suite\'s rule (timeoutIsVoid).'],
  },
  agents: {
    starter: [
          '2 agents ran; each is named by harness, version, model and reasoning effort',
          "claude-code:claude-sonnet-4-5 reached vendor with an API key, through bakeoff's metering proxy, and is billed at the cost shown; no run used a subscription.",
          'claude-code:claude-sonnet-4-5 claude-code 2.0.0 claude-sonnet-4-5 – API key, metered 4',
          'gold builtin – – – none (no model) 4',
        ],
    calibration: [
          '2 agents ran',
          "codex:gpt-5.5@minimal+subscription ran on a subscription (plus plan), with the owner's login held by bakeoff on the host",
          'the cost shown is the list-price equivalent of the metered tokens; billed: subscription',
          'No model agent used an API key.',
          'codex:gpt-5.5@minimal+subscription codex 0.50.0 gpt-5.5 minimal subscription (list-price equivalent cost; billed: subscription) 3',
        ],
  },
  'runs per task': {
    starter: ['Each agent runs each task 2 times (controls.runsPerTask)', 'gold (1 run/task), claude-code:claude-sonnet-4-5 (1 run/task) have another count', 'for k = 1 … 2'],
    calibration: ['Each agent runs each task 1 time (controls.runsPerTask)', 'Every agent here has exactly that many runs of every task.', 'for k = 1 … 1'],
  },
  'cost per fix': {
    starter: ["Cost per fix: the cost of all of an agent's runs (failed and void included) / its runs solved.", 'list prices (@pydantic/genai-prices 0.1.0)'],
    calibration: ["Cost per fix: the cost of all of an agent's runs (failed and void included) / its runs solved.", 'Subscription runs (codex:gpt-5.5@minimal+subscription): cost is the list-price equivalent'],
  },
  time: {
    starter: ['Time per run: the median, over valid runs, of the seconds spent in agent sessions (setup and grading excluded).', 'All 8 runs were made by bakeoff run without a fleet, on one machine at a time. At most 8 runs ran at once'],
    calibration: ['Time per run: the median, over valid runs', 'All 6 runs were made by bakeoff run without a fleet, on one machine at a time.'],
  },
  lines: {
    starter: ["Lines to review: the median, over valid runs, of lines added plus lines removed by the agent's change, tests included"],
    calibration: ['Lines to review: the median, over valid runs, of lines added plus lines removed'],
  },
  tokens: {
    starter: ["Tokens in and out: counted by bakeoff's metering proxy from the model API's answers, the same way for every harness; the harness's own figures are kept beside them"],
    calibration: ["Tokens in and out: counted by bakeoff's metering proxy"],
  },
  'limits and budgets': {
    starter: [
          'Each agent session (one work order) has 10 min of wall-clock time; a task\'s setup 15 min (and is stopped after 5 min without output); one run of the tests while grading 5 min.',
          '4096 MB of memory, 1024 processes and threads, 2 CPUs of CPU time per wall-clock second',
          'No agent time budget beyond the session clock.',
        ],
    calibration: [
          'Each agent session (one work order) has 2 min of wall-clock time',
          'one run of the tests while grading 60 s.',
          'Agent time budget: 10 min of session time per agent for each pass over the whole suite (every task\'s runs of one replay); a session that would run past it is stopped, which voids the run.',
          // agentBudget.stopOnError
          'A session that times out, ends in an error event or ends without an answer stops its pass: the pass\'s later runs do not start, and the whole pass is unscored (its runs count as void, pass-stopped).',
        ],
  },
  'replay rule and void limit': {
    starter: ['No replay rule: runs are independent samples.', 'No void limit.'],
    calibration: ['No replay rule: runs are independent samples.', 'No void limit.'],
  },
  'void count': {
    starter: ['1 of 8 runs is void: 1 because the task\'s setup failed (setup-failed).'],
    calibration: ['1 of 6 runs is void: 1 because the task\'s setup failed (setup-failed).'],
  },
  'what stays private': {
    starter: ['4 tasks have a title (and summary) the owner chose to publish', 'No codebase, prompt, hidden test, test name, agent change or agent output is on this site'],
    calibration: ['No codebase, prompt, hidden test, test name, agent change or agent output is on this site'],
  },
  'compare like with like': {
    starter: ['Two results are comparable only when they share the suite hash', 'the controls digest, the budgets and the runtimes', 'Runtimes: node: v20; prices: @pydantic/genai-prices 0.1.0; sandbox: bwrap; upstream: vendor.'],
    calibration: [
          'the seed and level of the generated checks (admission proved the reference change at each of seeds 1 and 2 with each of levels 1, 2 and 3; the runs used seed 1, level 1)',
          'the budgets and the runtimes; bakeoff refuses to rank runs that differ in any of them.',
        ],
  },
  'suite hash': {
    starter: [/Suite hash: [0-9a-f]{64}\./],
    calibration: [/Suite hash: [0-9a-f]{64}\./],
  },
  "owner's words": {
    starter: ["In the owner's words", 'Four tasks are a smoke test, not a measurement.'],
    calibration: ['The calibration rules', 'What it does not prove'],
  },
};

/** Expects every sentence or pattern of every point for `suite` on the page, naming the point that lacks one. */
function expectPoints(text: string, suite: 'starter' | 'calibration'): void {
  for (const [point, wanted] of Object.entries(POINTS)) {
    expect(wanted[suite].length, point).toBeGreaterThan(0);
    for (const w of wanted[suite]) {
      if (typeof w === 'string') expect(text, point).toContain(w);
      else expect(text, point).toMatch(w);
    }
  }
}

/** Each bundled suite with the model agent its page is written for, and what its page must not say. */
const CASES = [
  {
    suite: 'starter',
    about: 'four hand-written tasks graded by hidden tests, two runs each, an API agent, no budget',
    model: { id: 'claude-code:claude-sonnet-4-5', harness: 'claude-code', version: '2.0.0', model: 'claude-sonnet-4-5', effort: null, settings: { args: [], env: [] } },
    absent: ['billed: subscription', 'seed'],
  },
  {
    suite: 'calibration',
    about: 'generated checks, two orders per task, one run each, a budget per pass that stops on error, a subscription agent',
    model: { id: 'codex:gpt-5.5@minimal+subscription', harness: 'codex', version: '0.50.0', model: 'gpt-5.5', effort: 'minimal', auth: 'subscription', plan: 'plus', settings: { args: [], env: [] } },
    absent: ['no run used a subscription', 'API key, metered'],
  },
] as const satisfies readonly { suite: 'starter' | 'calibration'; about: string; model: AgentInfo; absent: readonly string[] }[];

describe('the methodology page of the bundled suites', () => {
  it.each(CASES)('$suite: every point, from its controls: $about', async ({ suite, model, absent }) => {
    const { text, hash } = await methodologyOf(suite, model);
    expect(text).toContain(`How the ${suite} bake is run`);
    expectPoints(text, suite);
    expect(text).toContain(`Suite hash: ${hash}.`);
    for (const words of absent) expect(text).not.toContain(words);
  });
});
