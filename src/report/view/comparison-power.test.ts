import { describe, expect, it } from 'vitest';
import { mcnemarMdd } from '../stats/mcnemar-power.js';
import { pairedTMdd } from '../stats/paired-t-power.js';
import { comparisonPower, formatPoints, mcnemarBestCase, type ComparisonPowerInput } from './comparison-power.js';
import { estimateVariances } from './estimate-variances.js';

type Pair = readonly [readonly number[], readonly number[]];

/** One run per task: `won` tasks A only, `lost` B only, `ties` both solved. */
function oneRun(won: number, lost: number, ties: number, neither = 0): ComparisonPowerInput {
  const scores: Pair[] = [
    ...Array<Pair>(won).fill([[1], [0]]),
    ...Array<Pair>(lost).fill([[0], [1]]),
    ...Array<Pair>(ties).fill([[1], [1]]),
    ...Array<Pair>(neither).fill([[0], [0]]),
  ];
  const tasks = scores.length;
  return { a: 'A', b: 'B', scores, aWins: won, bWins: lost, meanDifference: tasks < 2 ? null : (won - lost) / tasks };
}

describe('comparisonPower, one run per task: exact McNemar at the observed discordance', () => {
  it('uses the reference MDD of 30 tasks at discordance 0.4 and says a smaller gap is not distinguishable', () => {
    // 30 tasks, 12 discordant (ψ = 0.4): A won 7, B won 5 → gap 2/30
    const p = comparisonPower(oneRun(7, 5, 10, 8));
    expect(p.method).toBe('exact-mcnemar');
    expect(p.discordance).toBeCloseTo(0.4, 12);
    expect(p.mdd).toBeCloseTo(0.325, 9);
    expect(p.mddKind).toBe('estimate');
    expect(p.distinguishable).toBe(false);
    expect(p.sentence).toBe(
      'With 30 tasks without a void and one run per task, the minimum detectable difference at 80 % power and α = 0.05 is 0.33 (32.5 points) ' +
        '(exact McNemar, discordance 0.40); the observed gap of 0.07 (6.7 points) is inside it: A and B are not distinguishable at this size.',
    );
  });

  it('calls a gap at least the MDD detectable, without calling it significant', () => {
    const p = comparisonPower(oneRun(12, 0, 10, 8));
    expect(p.mdd).toBe(mcnemarMdd(30, 0.4).mdd);
    expect(p.distinguishable).toBe(true);
    expect(p.sentence).toMatch(/the observed gap of 0\.40 \(40 points\) is at least that large, so a gap like it is detectable at this size \(whether this one is real is the test's to say\)\.$/);
  });

  it('says why nothing is detectable when even a one-sided gap as large as the discordance falls short', () => {
    const p = comparisonPower(oneRun(3, 3, 10, 4)); // 20 tasks, ψ = 0.3: not reachable in the reference table
    expect(p.mdd).toBeNull();
    expect(p.sentence).toMatch(/no difference is detectable at 80 % power and α = 0\.05: even a gap as large as the discordance \(0\.30.*A and B are not distinguishable at this size\.$/);
  });

  it('with 4 tasks that all came out the same way, says the test cannot reach significance instead of looking certain', () => {
    const p = comparisonPower(oneRun(0, 0, 4));
    expect(p.mdd).toBeNull();
    expect(p.distinguishable).toBe(false);
    expect(p.sentence).toBe(
      'With 4 tasks without a void and one run per task, no difference is detectable at 80 % power and α = 0.05: the exact McNemar test cannot reach p ≤ 0.05 ' +
        'with fewer than 6 tasks, even if every task went one way. A and B are not distinguishable at this size.',
    );
  });

  it('with enough tasks but no discordant one, gives the most favourable case as a lower bound, never an MDD of 0', () => {
    const p = comparisonPower(oneRun(0, 0, 12, 8));
    expect(p.mddKind).toBe('lower-bound');
    expect(p.mdd).toBe(mcnemarBestCase(20));
    expect(p.mdd).toBeGreaterThan(0);
    expect(p.distinguishable).toBe(false);
    expect(p.sentence).toContain('is at least 0.');
    expect(p.sentence).toContain('no task came out differently for the two agents (discordance 0)');
    expect(p.sentence).toContain('its 95 % interval is a single point — not certainty');
    expect(p.sentence).toMatch(/not distinguishable at this size\.$/);
  });
});

describe('comparisonPower, several runs per task: paired t on the per-task shares', () => {
  // the six-task example of notes/statistics.md (2 runs each)
  const a = [[1, 1], [1, 0], [0, 0], [1, 1], [0, 1], [1, 1]];
  const b = [[1, 0], [0, 0], [0, 0], [1, 1], [0, 0], [0, 1]];
  const scores: Pair[] = a.map((runs, i) => [runs, b[i]!]);

  it('estimates sd_b² = max(0, var(d_t) − w̄/k) and w̄ from the per-task shares', () => {
    const v = estimateVariances(scores, 2);
    // d = [0.5, 0.5, 0, 0, 0.5, 0.5]: var = 1/15; pA(1 − pA) + pB(1 − pB) per task: 0 + ¼, ¼ + 0, 0, 0, ¼ + 0, 0 + ¼
    expect(v.differenceVar).toBeCloseTo(1 / 15, 12);
    const w = (0.25 + 0.25 + 0 + 0 + 0.25 + 0.25) / 6;
    expect(v.withinVar).toBeCloseTo(w, 12);
    expect(v.betweenSd).toBeCloseTo(Math.sqrt(Math.max(0, 1 / 15 - w / 2)), 12);
  });

  it('states the paired-t MDD at the estimated variances', () => {
    const p = comparisonPower({ a: 'A', b: 'B', scores, aWins: 4, bWins: 0, meanDifference: 1 / 3 });
    const v = estimateVariances(scores, 2);
    expect(p.method).toBe('paired-t');
    expect(p.runsPerTask).toBe(2);
    expect(p.mdd).toBeCloseTo(pairedTMdd({ tasks: 6, runsPerTask: 2, betweenSd: v.betweenSd, withinVar: v.withinVar }), 12);
    expect(p.sentence).toContain('(paired t, between-task sd ');
  });

  it('when no run varied at all, sizes the difference by the sign test on the tasks and says why', () => {
    const flat: Pair[] = Array<Pair>(4).fill([[1, 1], [0, 0]]);
    const p = comparisonPower({ a: 'A', b: 'B', scores: flat, aWins: 4, bWins: 0, meanDifference: 1 });
    expect(p.method).toBe('exact-mcnemar');
    expect(p.mdd).toBeNull();
    expect(p.distinguishable).toBe(false);
    expect(p.sentence).toContain('no run varied (every task has the same difference and no task\'s runs disagree)');
    expect(p.sentence).toMatch(/not distinguishable at this size\.$/);
  });
});

describe('formatPoints', () => {
  it('writes a difference in share and in points', () => {
    expect(formatPoints(0.31)).toBe('0.31 (31 points)');
    expect(formatPoints(0.325)).toBe('0.33 (32.5 points)');
  });
});
