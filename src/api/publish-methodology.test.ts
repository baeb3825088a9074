import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSite, summarize } from '../report/index.js';
import type { RunRecord } from '../types.js';
import { loadSuite } from '../suite/index.js';
import { siteSuiteOf } from './publish.js';

/*
 * The methodology page of the two bundled suites, written from their own suite.yaml, task.yaml,
 * lock and methodology.md: each point the page must state, with the values of their controls.
 */

const EXAMPLES = path.resolve(import.meta.dirname, '../../examples');

async function methodologyOf(name: string): Promise<string> {
  const suite = await siteSuiteOf(await loadSuite(path.join(EXAMPLES, name)));
  const runs: RunRecord[] = suite.tasks.map((t, i) => ({
    id: `r${i}`, suiteId: suite.id, suiteHash: suite.hash, controlsDigest: 'd'.repeat(64), task: t.id,
    agent: { id: 'gold', harness: 'builtin', version: null, model: null, effort: null }, replay: 0, seed: null, level: null,
    outcome: { kind: 'solved' }, agentSec: 1, gradeSec: 1, costUsd: null, tokensIn: null, tokensOut: null, linesAdded: 3, linesRemoved: 1,
    points: 1, maxPoints: 1, orders: [{ order: 1, points: 1, maxPoints: 1 }], runtime: { node: 'v20', sandbox: 'bwrap' },
    startedAt: '2026-01-01T00:00:00Z', finishedAt: '2026-01-01T00:00:05Z',
  }));
  const view = summarize(runs, { standardRunsPerTask: suite.controls.runsPerTask, controls: suite.controls });
  const html = renderSite({ suite, view, runs, comparison: null, generatedAt: 'now' }).get('methodology.html')!;
  return html.replace(/<[^>]+>/g, ' ').replace(/&#39;/g, "'").replace(/\s+/g, ' ');
}

describe('the methodology page of the bundled suites', () => {
  it('starter: four hand-written tasks in four languages graded by hidden tests, two runs each, its clocks and limits, and the owner\'s words', async () => {
    const text = await methodologyOf('starter');
    expect(text).toContain('How the starter bake is run');
    expect(text).toContain('The suite starter has 4 admitted tasks: 3 bug fixes and 1 feature, in JavaScript (1), Python (1), Rust (1) and TypeScript (1).');
    expect(text).toContain('Where they come from: 4 written for the suite.');
    expect(text).toContain('Every task is graded by hidden tests the agent never sees.');
    expect(text).toMatch(/fixed the tests every run must pass: \d+ fail-to-pass tests .* and \d+ pass-to-pass tests/);
    expect(text).toContain('No test is declared a known failure.');
    expect(text).toContain('Each agent runs each task 2 times (controls.runsPerTask)');
    expect(text).toContain('Each agent session (one work order) has 10 min of wall-clock time');
    expect(text).toContain('fails the run (session-timeout)');
    expect(text).toContain('No replay rule: runs are independent samples.');
    expect(text).toContain('Cost per fix:');
    expect(text).toContain('Time per run: the median');
    expect(text).toContain('Lines to review:');
    expect(text).toContain('Tokens in and out:');
    expect(text).toContain('None of the 4 runs is void.');
    expect(text).toContain('No codebase, prompt, hidden test, test name, agent change or agent output is on this site');
    expect(text).toContain('4 tasks have a title (and summary) the owner chose to publish');
    expect(text).toMatch(/Suite hash: [0-9a-f]{64}\./);
    expect(text).toContain("In the owner's words");
    expect(text).toContain('Four tasks are a smoke test, not a measurement.');
  });

  it('calibration: generated checks, two orders per task, one run each, a budget per pass over the suite, timeouts void', async () => {
    const text = await methodologyOf('calibration');
    expect(text).toContain('The suite calibration has 3 admitted tasks: 3 bug fixes and 0 features, in JavaScript (3).');
    expect(text).toContain('The tasks hold 6 work orders in all; 3 tasks have more than one, run in sequence in the same workspace');
    expect(text).toContain('Every task is graded by checks generated from a seed and level');
    expect(text).toContain('Each agent runs each task 1 time (controls.runsPerTask)');
    expect(text).toContain('Each agent session (one work order) has 2 min of wall-clock time');
    expect(text).toContain('Agent time budget: 10 min of session time per agent for each pass over the whole suite');
    expect(text).toContain('is void (unscored), by this suite\'s rule (timeoutIsVoid)');
    expect(text).toContain('the seed and level of the generated checks (here seed 1, level 1)');
    expect(text).toContain('What it does not prove');
  });
});
