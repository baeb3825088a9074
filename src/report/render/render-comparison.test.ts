import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../../types.js';
import { comparePaired, type PairedComparison } from '../view/compare-paired.js';
import { renderComparison } from './render-comparison.js';
import { renderComparisonJson } from './render-comparison-json.js';
import { renderComparisonMarkdown } from './render-comparison-markdown.js';
import { summarize } from '../view/summarize.js';
import { testRunsOf } from '../view/test-runs.test-support.js';

const S: Outcome = { kind: 'solved' };
const F: Outcome = { kind: 'failed', reason: 'tests-failed' };
const V: Outcome = { kind: 'void', reason: 'infra-error' };

function runsOf(agent: string, outcomes: Record<string, Outcome[]>): RunRecord[] {
  return testRunsOf(agent, outcomes, { suiteId: 'slice', suiteHash: 'sha256:5a17e', controlsDigest: 'sha256:c0ffee' });
}

// 2 replays per task: t1 alpha wins, t2 beta wins, t3 tie, t4 alpha's replays drift, t5 beta void.
const runs = [
  ...runsOf('alpha', { t1: [S, S], t2: [F, F], t3: [S, S], t4: [S, F], t5: [S, S] }),
  ...runsOf('beta', { t1: [F, F], t2: [S, S], t3: [S, S], t4: [S, S], t5: [V, S] }),
];

function compare(controls: unknown): PairedComparison {
  const result = comparePaired(runs, { a: 'alpha', b: 'beta', controls });
  if (!result.ok) throw new Error(result.reason);
  return result.comparison;
}

const withRule = compare({ runsPerTask: 2, replayRule: { replays: 2, allowedDrift: 0 }, voidLimit: 2 });

describe('renderComparison', () => {
  const text = renderComparison(withRule);
  const lines = text.split('\n');

  it('starts with the legal sentence', () => {
    expect(lines[0]).toBe('On slice, with 2 attempts per task and a frozen oracle, alpha won 1, beta won 1, 1 tied, 2 void.');
  });

  it('shows the suite hash, controls digest, replay rule, void count, p-value and paired difference beside it', () => {
    expect(text).toContain('suite slice, hash sha256:5a17e');
    expect(text).toContain('controls digest sha256:c0ffee');
    expect(text).toContain('replay rule: 2 replays per task, allowed drift 0; void limit: 2 void tasks');
    expect(text).toContain('void: 2 of 5 tasks');
    expect(text).toContain('exact McNemar (sign test): p = 1.0000 (2 discordant tasks: alpha 1, beta 1)');
    expect(text).toMatch(/mean paired difference \(alpha − beta\): \+0\.000, 95% CI \[−[\d.]+, \+[\d.]+\] over 3 tasks/);
  });

  it('lists every task with both shares and the result, naming why a task is void and the classes of its runs not solved', () => {
    expect(lines).toContainEqual(expect.stringMatching(/^t1\s+1\.00\s+0\.00 \(no change\)\s+alpha wins$/));
    expect(lines).toContainEqual(expect.stringMatching(/^t2\s+0\.00 \(no change\)\s+1\.00\s+beta wins$/));
    expect(lines).toContainEqual(expect.stringMatching(/^t4\s+void \(replay-drift: no change\)\s+1\.00\s+void$/));
    expect(lines).toContainEqual(expect.stringMatching(/^t5\s+1\.00\s+void \(infra-error: instrument\)\s+void$/));
  });

  it('says where the two agents\' failures differ, class by class', () => {
    expect(text).toContain('why runs were not solved (alpha / beta; * where they differ): no change 3 / 2 *, instrument 0 / 1 *');
  });

  it('states the minimum detectable difference and that 3 tasks cannot tell the agents apart', () => {
    expect(text).toContain('minimum detectable difference (80% power, α = 0.05, 3 tasks): none reachable, exact McNemar, discordance 0.667');
    expect(lines[1]).toBe(
      'With 3 tasks without a void and one outcome per task (its replays\' majority), no difference is detectable at 80 % power and α = 0.05: ' +
        'the exact McNemar test cannot reach p ≤ 0.05 with fewer than 6 tasks, even if every task went one way. alpha and beta are not distinguishable at this size.',
    );
  });

  it('says "no replay rule" without one, and warns on top when the void limit is exceeded', () => {
    // Without a replay rule runs are samples: only a task whose every run is void is void.
    const more = [...runs, ...runsOf('alpha', { t6: [V, V] }), ...runsOf('beta', { t6: [S, S] })];
    const result = comparePaired(more, { a: 'alpha', b: 'beta', controls: { runsPerTask: 2, voidLimit: 0 } });
    if (!result.ok) throw new Error(result.reason);
    const plain = renderComparison(result.comparison);
    expect(plain).toContain('no replay rule; void limit: 0 void tasks');
    expect(plain.split('\n')[0]).toMatch(/^NO WINNER: 1 void tasks, more than the void limit of 0/);
    expect(text).not.toContain('NO WINNER');
  });
});

describe('renderComparisonMarkdown', () => {
  const md = renderComparisonMarkdown(withRule);

  it('sets the sentence in bold, the facts as a list and one table row per task', () => {
    expect(md.split('\n')[0]).toBe('**On slice, with 2 attempts per task and a frozen oracle, alpha won 1, beta won 1, 1 tied, 2 void.**');
    expect(md).toContain('- suite `slice`, hash `sha256:5a17e`');
    expect(md).toContain('- exact McNemar (sign test): p = 1.0000');
    expect(md).toContain('| `t4` | void (replay-drift: no change) | 1.00 | void |');
    expect(md.split('\n')[2]).toMatch(/^With 3 tasks .* not distinguishable at this size\.$/);
    expect(md.split('\n').filter((line) => line.startsWith('| `t'))).toHaveLength(5);
  });
});

describe('renderComparisonJson', () => {
  const pairRuns = runs;
  const controls = { runsPerTask: 2, replayRule: { replays: 2, allowedDrift: 0 }, voidLimit: 2 };
  const view = summarize(pairRuns, { standardRunsPerTask: 2, controls });
  const json = JSON.parse(renderComparisonJson(view, pairRuns, withRule)) as Record<string, unknown> & {
    comparison: Record<string, unknown> & { perTask: unknown[] };
  };

  it('has the comparison with counts, p-value, mean difference, interval, sentence and tasks', () => {
    expect(json.comparison).toMatchObject({
      a: 'alpha',
      b: 'beta',
      aWins: 1,
      bWins: 1,
      ties: 1,
      void: 2,
      pValue: 1,
      meanDifference: 0,
      sentence: withRule.sentence,
    });
    expect(json.comparison.ci95).toEqual({ low: expect.any(Number), high: expect.any(Number) });
    expect(json.comparison.perTask[3]).toEqual({ task: 't4', result: 'void', aShare: null, bShare: 1, aVoid: 'replay-drift', bVoid: null, aFailures: ['no-change'], bFailures: [] });
    expect(json.comparison).toMatchObject({ power: { method: 'exact-mcnemar', tasks: 3, mdd: null, distinguishable: false }, failures: { differences: [{ class: 'no-change', a: 3, b: 2 }, { class: 'instrument', a: 0, b: 1 }] } });
  });

  it('keeps the report fields beside it: suite, controls, replay rule and both agents', () => {
    expect(json.suite).toEqual({ id: 'slice', hash: 'sha256:5a17e' });
    expect(json.controls).toEqual(controls);
    expect(json.replayRule).toEqual({ replays: 2, allowedDrift: 0 });
    expect((json.agents as { id: string }[]).map((a) => a.id).sort()).toEqual(['alpha', 'beta']);
  });
});
