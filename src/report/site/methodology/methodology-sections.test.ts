import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../../../types.js';
import { summarize } from '../../view/summarize.js';
import type { SiteControls, SiteSuite, SiteTask } from '../site-input.js';
import { methodologySections, peakOverlap } from './methodology-sections.js';
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

function sections(controls: Partial<SiteControls> = {}, tasks: SiteTask[] = [task('t1'), task('t2')], runs?: RunRecord[], methodology: string | null = null) {
  const c = { ...CONTROLS, ...controls };
  const rs = runs ?? [run('gold', 't1', { kind: 'solved' }), run('gold', 't2', { kind: 'solved' })];
  const view = summarize(rs, { standardRunsPerTask: c.runsPerTask, controls: c });
  const suite: SiteSuite = { id: 'demo', hash: 'a'.repeat(64), controls: c, tasks, methodology };
  const input = { suite, view, runs: rs, isPrivate: false };
  const text = (id: string) => methodologySections(input).find((s) => s.id === id)!.paragraphs.join('\n');
  return { text, html: renderMethodologyBody(input) };
}

describe('methodology sections', () => {
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
    expect(s.text('compare')).toContain('Runtimes: node v20.19.0, sandbox bwrap.');
    expect(s.text('numbers')).toContain('At most 2 runs overlapped in time');
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
