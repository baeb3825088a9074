import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../../../types.js';
import { summarize } from '../../view/summarize.js';
import type { SiteControls, SiteSuite, SiteTask } from '../site-input.js';
import { methodologySections } from './methodology-sections.js';
import { peakOverlap } from './where-runs-ran.js';
import { renderMethodologyBody } from './render-methodology-body.js';

const CONTROLS: SiteControls = {
  runsPerTask: 2, sessionWallClockSec: 600, setupWallClockSec: 900, setupIdleSec: 300, testWallClockSec: 300, memoryMb: 4096, pids: 1024,
  cpus: 2, tmpMb: 1024, homeMb: 512, diskMb: 2048, maxChangeMb: 64, seeds: [1], level: 1, timeoutIsVoid: false,
};

function task(id: string, extra: Partial<SiteTask> = {}): SiteTask {
  return { id, kind: 'bug', language: 'js', grading: 'tests', orders: 1, knownFailures: 0, failToPass: 2, passToPass: 5, origin: null, public: null, ...extra };
}

let next = 0;
function run(agent: string, taskId: string, outcome: Outcome, startedAt = '2026-01-01T00:00:00Z', finishedAt = '2026-01-01T00:01:00Z'): RunRecord {
  return {
    id: `r${next++}`, suiteId: 'demo', suiteHash: 'a'.repeat(64), controlsDigest: 'c'.repeat(64), task: taskId,
    agent: { id: agent, harness: 'builtin', version: null, model: null, effort: null }, replay: 0, seed: null, level: null, outcome,
    agentSec: 10, gradeSec: 1, costUsd: null, tokensIn: null, tokensOut: null, linesAdded: 1, linesRemoved: 0, points: 1, maxPoints: 1,
    orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: { node: 'v20.19.0', sandbox: 'bwrap' }, startedAt, finishedAt,
  };
}

/** A model agent's run through the metering proxy to `upstream`, on a subscription when `auth` says so. */
function modelRun(agent: string, taskId: string, options: { auth?: 'subscription'; plan?: string; upstream?: string } = {}): RunRecord {
  const r = run(agent, taskId, { kind: 'solved' });
  return {
    ...r,
    agent: { id: agent, harness: 'codex', version: '0.1.0', model: 'gpt-5.5', effort: 'low', ...(options.auth ? { auth: options.auth, plan: options.plan ?? null } : {}) },
    costUsd: 0.01,
    runtime: { ...r.runtime, upstream: options.upstream ?? 'vendor', prices: 'catalog' },
  };
}

function sections(controls: Partial<SiteControls> = {}, tasks: SiteTask[] = [task('t1'), task('t2')], runs?: RunRecord[], methodology: string | null = null, workers?: ReadonlyMap<string, string>) {
  const c = { ...CONTROLS, ...controls };
  const rs = runs ?? [run('gold', 't1', { kind: 'solved' }), run('gold', 't2', { kind: 'solved' })];
  const view = summarize(rs, { standardRunsPerTask: c.runsPerTask, controls: c });
  const suite: SiteSuite = { id: 'demo', hash: 'a'.repeat(64), controls: c, tasks, methodology };
  const input = { suite, view, runs: rs, isPrivate: false, ...(workers ? { workers } : {}) };
  const text = (id: string) => methodologySections(input).find((s) => s.id === id)!.paragraphs.join('\n');
  return { text, html: renderMethodologyBody(input) };
}

describe('methodology sections', () => {
  it('states the closed web: what the proxy withheld per API (from its tables), each harness\'s switch, and the web attempts counted', () => {
    const claude = { id: 'claude-code:m', harness: 'claude-code', version: '2', model: 'm', effort: null, webTools: { names: ['WebSearch', 'WebFetch'], switch: '--disallowedTools WebSearch,WebFetch' } };
    const runs = [{ ...modelRun('claude-code:m', 't1'), agent: claude, webAttempts: 3 }, { ...modelRun('claude-code:m', 't2'), agent: claude, webAttempts: 0 }];
    const c = { ...CONTROLS };
    const view = summarize(runs, { standardRunsPerTask: c.runsPerTask, controls: c });
    const suite: SiteSuite = { id: 'demo', hash: 'a'.repeat(64), controls: c, tasks: [task('t1'), task('t2')], methodology: null };
    const toolPolicy = { apis: [{ api: 'Anthropic Messages', tools: ['web_search_<date> (web search)'], fields: ['mcp_servers'], inputs: ['image or document from a URL'] }], searchModels: ['Perplexity Sonar'] };
    const text = methodologySections({ suite, view, runs, isPrivate: false, toolPolicy }).find((x) => x.id === 'network')!;
    expect(text.heading).toBe('The network: closed web');
    const said = text.paragraphs.join('\n');
    expect(said).toContain("The agent's only network was the model API, and the model API fetched nothing for it.");
    expect(said).toContain('Withheld — Anthropic Messages: web_search_<date> (web search) and the mcp_servers field.');
    expect(said).toContain('(Perplexity Sonar)');
    expect(said).toContain('claude-code: WebSearch, WebFetch (--disallowedTools WebSearch,WebFetch)');
    expect(said).toContain('Web attempts counted over all runs: 3 (claude-code:m: 3).');
  });

  it('states the open web, and that its results stand apart', () => {
    const open = sections({ network: 'model-api+web' }, undefined, [modelRun('codex:m', 't1')]);
    expect(open.text('network')).toMatch(/This suite sets network: model-api\+web/);
    expect(open.text('network')).toContain('never ranked or compared with closed-web results');
  });

  it('states the runs per task from the control, and changes with it', () => {
    expect(sections({ runsPerTask: 2 }).text('runs')).toContain('Each agent runs each task 2 times (controls.runsPerTask)');
    expect(sections({ runsPerTask: 3 }).text('runs')).toContain('Each agent runs each task 3 times (controls.runsPerTask)');
    expect(sections({ runsPerTask: 1 }).text('runs')).toContain('Each agent runs each task 1 time (controls.runsPerTask)');
    expect(sections({ runsPerTask: 3 }).text('runs')).toContain('gold (1 run/task) has another count');
  });

  it('states the wall clocks, limits and budget from the controls', () => {
    const base = sections().text('limits');
    expect(base).toContain('Each agent session (one work order) has 10 min of wall-clock time');
    expect(base).toContain('one run of the tests while grading 5 min');
    expect(base).toContain('4096 MB of memory, 1024 processes and threads, 2 CPUs of CPU time per wall-clock second');
    expect(base).toContain('No agent time budget');
    const changed = sections({ sessionWallClockSec: 90, agentBudget: { totalSec: 600, scope: 'replay' }, timeoutIsVoid: true }).text('limits');
    expect(changed).toContain('has 90 s of wall-clock time');
    expect(changed).toContain('Agent time budget: 10 min of session time per agent for each pass over the whole suite');
    expect(changed).toContain('which voids the run');
    expect(sections({ timeoutIsVoid: true }).text('solved')).toContain('is void (unscored)');
    expect(sections().text('solved')).toContain('fails the run (session-timeout)');
  });

  it('states the replay rule and void limit, and changes with them', () => {
    expect(sections().text('rules')).toContain('No replay rule: runs are independent samples.');
    const ruled = sections({ runsPerTask: 3 });
    expect(ruled.text('rules')).toContain('No void limit.');
    const withRule = (() => {
      const c = { ...CONTROLS, runsPerTask: 3, replayRule: { replays: 3, allowedDrift: 1 }, voidLimit: 2 };
      const rs = ['t1', 't2'].flatMap((t) => [0, 1, 2].map(() => run('gold', t, { kind: 'solved' })));
      const view = summarize(rs, { standardRunsPerTask: 3, controls: c });
      const suite: SiteSuite = { id: 'demo', hash: 'a'.repeat(64), controls: c, tasks: [task('t1'), task('t2')], methodology: null };
      return methodologySections({ suite, view, runs: rs, isPrivate: false }).find((s) => s.id === 'rules')!.paragraphs.join('\n');
    })();
    expect(withRule).toContain('Replay rule: 3 replays per task and agent, allowed drift 1.');
    expect(withRule).toContain('Void limit: 2 void tasks per agent');
  });

  it('counts tasks by kind, language, origin, grading and known failures', () => {
    const tasks = [
      task('a', { kind: 'feature', language: 'python', origin: { kind: 'commit' }, knownFailures: 3 }),
      task('b', { language: 'rust', origin: { kind: 'commit' }, orders: 2 }),
      task('c', { grading: 'checks', failToPass: 0, passToPass: 0 }),
    ];
    const text = sections({}, tasks, [run('gold', 'a', { kind: 'solved' })]).text('tasks');
    expect(text).toContain('The suite demo has 3 admitted tasks: 2 bug fixes and 1 feature, in JavaScript (1), Python (1) and Rust (1).');
    expect(text).toContain('Where they come from: 2 made from a real commit and 1 of unstated origin.');
    expect(text).toContain('The tasks hold 4 work orders in all; 1 task has more than one');
    expect(text).toContain('2 tasks are graded by hidden tests and 1 task by generated checks');
    expect(text).toContain('4 fail-to-pass tests');
    expect(text).toContain('10 pass-to-pass tests');
    expect(text).toContain('3 tests in 1 task are declared known failures');
    expect(sections().text('tasks')).toContain('No test is declared a known failure.');
  });

  it('says whether admission included the exploit library, and how many exploits it tried', () => {
    const rs = [run('gold', 'a', { kind: 'solved' })];
    expect(sections({}, [task('a'), task('b')], rs).text('tasks')).not.toContain('adversarial');
    const all = sections({}, [task('a', { adversarialExploits: 12 }), task('b', { adversarialExploits: 12 })], rs).text('tasks');
    expect(all).toContain('Admission included adversarial admission for every task: 12 exploits of bakeoff');
    const some = sections({}, [task('a', { adversarialExploits: 12 }), task('b')], rs).text('tasks');
    expect(some).toContain('Admission included adversarial admission for 1 task of 2: 12 exploits');
    expect(some).not.toContain('Hacker agents');
  });

  it('names the hacker agents that also faced the tasks, and on how many', () => {
    const rs = [run('gold', 'a', { kind: 'solved' })];
    const text = sections({}, [task('a', { adversarialExploits: 12, adversarialHackers: ['hacker:codex:gpt-5'] }), task('b', { adversarialExploits: 12 })], rs).text('tasks');
    expect(text).toContain("Hacker agents, told by bakeoff's prompt to make the hidden tests pass without fixing the problem, also ran (hacker:codex:gpt-5 on 1 task), and each was graded failed.");
  });

  it('counts void runs by reason and says they are not failures', () => {
    const runs = [
      run('gold', 't1', { kind: 'solved' }),
      run('gold', 't2', { kind: 'void', reason: 'setup-failed' }),
      run('noop', 't1', { kind: 'void', reason: 'setup-failed' }),
      run('noop', 't2', { kind: 'void', reason: 'infra-error' }),
    ];
    const text = sections({}, undefined, runs).text('void');
    expect(text).toContain('never counted as failed');
    expect(text).toContain("3 of 4 runs are void: 2 because the task's setup failed (setup-failed); 1 because bakeoff, the sandbox or the machine failed (infra-error).");
    expect(sections().text('void')).toContain('None of the 2 runs is void.');
  });

  it('gives the suite hash, the runtimes and how many runs overlapped', () => {
    const runs = [
      run('gold', 't1', { kind: 'solved' }, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z'),
      run('gold', 't2', { kind: 'solved' }, '2026-01-01T00:00:30Z', '2026-01-01T00:02:00Z'),
      run('noop', 't1', { kind: 'failed', reason: 'tests-failed' }, '2026-01-01T00:01:00Z', '2026-01-01T00:03:00Z'),
    ];
    expect(peakOverlap(runs)).toBe(2);
    const s = sections({}, undefined, runs);
    expect(s.text('compare')).toContain(`Suite hash: ${'a'.repeat(64)}.`);
    expect(s.text('compare')).toContain('Runtimes: node: v20.19.0; sandbox: bwrap.');
    expect(s.text('numbers')).toContain('All 3 runs were made by bakeoff run without a fleet, on one machine at a time. At most 2 runs ran at once (one agent session each at a time;');
    expect(s.text('numbers')).not.toContain('on one worker');
  });

  it('counts the machines of a fleet bake as the distinct workers that made its runs, and the most runs at once on one of them', () => {
    const at = (minute: number): string => `2026-01-01T00:0${minute}:00Z`;
    const runs = [
      run('gold', 't1', { kind: 'solved' }, at(0), at(2)),
      run('gold', 't2', { kind: 'solved' }, at(1), at(3)),
      run('noop', 't1', { kind: 'failed', reason: 'tests-failed' }, at(1), at(2)),
      run('noop', 't2', { kind: 'failed', reason: 'tests-failed' }, at(5), at(6)),
    ];
    const fleet = new Map([[runs[0]!.id, 'w-b'], [runs[1]!.id, 'w-a'], [runs[2]!.id, 'w-b'], [runs[3]!.id, 'w-c']]);
    const text = sections({}, undefined, runs, null, fleet).text('numbers');
    expect(text).toContain('The runs were made by a fleet (bakeoff run --queue) on 3 machines, counted as the distinct workers that made them (w-a, w-b, w-c).');
    expect(text).toContain('At most 3 runs ran at once, at most 2 on one worker');
    expect(text).not.toContain('without a fleet');
    // one worker only: one machine
    const one = sections({}, undefined, runs, null, new Map(runs.map((r) => [r.id, 'solo']))).text('numbers');
    expect(one).toContain('on 1 machine, counted as the distinct workers that made them (solo)');
    expect(one).toContain('At most 3 runs ran at once, at most 3 on one worker');
    // a folder with local and fleet runs says both
    const mixed = sections({}, undefined, runs, null, new Map([[runs[3]!.id, 'w-c']])).text('numbers');
    expect(mixed).toContain('1 of 4 runs were made by a fleet (bakeoff run --queue) on 1 machine, counted as the distinct workers that made them (w-c); the other 3 by bakeoff run without a fleet, on one machine at a time.');
  });

  it('says which agents ran on a subscription and which with an API key, in the paragraph and the table', () => {
    const runs = [modelRun('gpt-plan', 't1', { auth: 'subscription', plan: 'plus' }), modelRun('gpt-api', 't1'), run('noop', 't1', { kind: 'failed', reason: 'tests-failed' })];
    const s = sections({}, [task('t1')], runs);
    const text = s.text('agents');
    expect(text).toContain("gpt-api reached vendor with an API key, through bakeoff's metering proxy, and is billed at the cost shown.");
    expect(text).toContain('gpt-plan ran on a subscription (plus plan)');
    expect(text).toContain('the cost shown is the list-price equivalent of the metered tokens; billed: subscription');
    expect(text).not.toContain('no run used a subscription');
    const row = (id: string): string => new RegExp(`<tr><th scope="row">${id}</th>.*?</tr>`).exec(s.html)![0];
    expect(row('gpt-plan')).toContain('<td>subscription (list-price equivalent cost; billed: subscription)</td>');
    expect(row('gpt-api')).toContain('<td>API key, metered</td>');
    expect(row('noop')).toContain('<td>none (no model)</td>');
    // only API agents: said so; only subscription agents: said so
    expect(sections({}, [task('t1')], [modelRun('gpt-api', 't1')]).text('agents')).toContain('is billed at the cost shown; no run used a subscription.');
    const plan = sections({}, [task('t1')], [modelRun('a', 't1', { auth: 'subscription' }), modelRun('b', 't1', { auth: 'subscription' })]).text('agents');
    expect(plan).toContain('a and b ran on a subscription, with the owner');
    expect(plan).toContain('No model agent used an API key.');
    expect(plan).not.toContain('reached vendor');
  });

  it('names every seed and level admission proved, and the ones the runs used', () => {
    const checked = [task('t1', { grading: 'checks' })];
    const seeded = (seed: number | null, level: number | null): RunRecord => ({ ...run('gold', 't1', { kind: 'solved' }), seed, level });
    const text = sections({ seeds: [3, 1, 2], levels: [1, 2], seed: 2, level: 1 }, checked, [seeded(2, 1)]).text('compare');
    expect(text).toContain('the seed and level of the generated checks (admission proved the reference change at each of seeds 3, 1 and 2 with each of levels 1 and 2; the runs used seed 2, level 1)');
    // runs that recorded no seed: the controls' seed, by default the first of seeds
    expect(sections({ seeds: [7, 8] }, checked, [seeded(null, null)]).text('compare')).toContain('at each of seeds 7 and 8 with level 1; the runs used seed 7, level 1)');
    // no generated checks: no seed to state
    expect(sections({ seeds: [7, 8] }).text('compare')).not.toContain('seed');
  });

  it("renders the owner's methodology.md without raw HTML, images or links off the site", () => {
    const { html } = sections({}, undefined, undefined, '# What it does not prove\n\n<script>alert(1)</script> [far](https://example.com) [near](matrix.html) ![x](http://example.com/x.png)\n');
    expect(html).toContain("In the owner's words");
    expect(html).toContain('<h3>What it does not prove</h3>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="matrix.html">near</a>');
    expect(html).not.toMatch(/href="https?:|src=/);
    expect(sections().html).not.toContain("In the owner's words");
  });
});
