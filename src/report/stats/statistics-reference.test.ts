/**
 * Every reference value of /work/shared/notes/statistics.md, section by section. The note's
 * values were computed independently (plain formulas, cross-checked with SciPy 1.17) and printed
 * to 4 or 6 decimals; a value passes when it rounds to the printed one (within half a unit of
 * the last printed digit, so exact ties such as 186/256 = 0.7265625 → "0.726562" pass too).
 * The extra t quantiles for 1 and 30 degrees of freedom come from the task brief (standard
 * t tables; SciPy `t.ppf(0.975, df)`).
 */
import { describe, expect, it } from 'vitest';
import { clusteredShareCi } from './clustered-share-ci.js';
import { exactMcNemar } from './exact-mcnemar.js';
import { pairedDifference } from './paired-difference.js';
import { passAtK, passHatK } from './pass-at-k.js';
import { studentTQuantile } from './student-t-quantile.js';
import { wilson } from './wilson.js';

function expectPrinted(actual: number, printed: string): void {
  const decimals = printed.split('.')[1]?.length ?? 0;
  expect(Math.abs(actual - Number(printed))).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-12);
}

describe('statistics.md: share solved with a 95% Wilson interval', () => {
  it.each([
    [7, 10, '0.3968', '0.8922'],
    [0, 24, '0.0000', '0.1380'],
    [24, 24, '0.8620', '1.0000'],
    [41, 60, '0.5577', '0.7869'],
  ])('wilson(%i, %i) is the reference interval', (k, n, low, high) => {
    const interval = wilson(k, n);
    expectPrinted(interval.low, low);
    expectPrinted(interval.high, high);
  });
});

describe('statistics.md: several runs per task, clustered standard error', () => {
  it('the five-task example has the reference share, naive, clustered and corrected SE', () => {
    const result = clusteredShareCi([[1, 1], [1, 0], [0, 0], [1, 1], [0, 1]]);
    expectPrinted(result.share, '0.6');
    expectPrinted(result.seNaive, '0.154919');
    expectPrinted(result.seUncorrected, '0.167332');
    expectPrinted(result.se, '0.187083');
  });
});

describe('statistics.md: paired comparison', () => {
  it.each([
    [5, 3, '0.726562'],
    [10, 2, '0.038574'],
    [12, 3, '0.035156'],
    [0, 0, '1'],
  ])('exactMcNemar(%i, %i) is the reference p-value', (b, c, p) => {
    expectPrinted(exactMcNemar(b, c), p);
  });

  it('the six-task paired difference has the reference d, mean, SE and interval', () => {
    const result = pairedDifference(
      [[1, 1], [1, 0], [0, 0], [1, 1], [0, 1], [1, 1]],
      [[1, 0], [0, 0], [0, 0], [1, 1], [0, 0], [0, 1]],
    );
    expect(result.byTask).toEqual([0.5, 0.5, 0, 0, 0.5, 0.5]);
    expectPrinted(result.mean, '0.3333');
    expectPrinted(result.se, '0.105409');
    expectPrinted(result.ci95.low, '0.0624');
    expectPrinted(result.ci95.high, '0.6043');
  });

  it.each([
    [5, '2.570582'],
    [1, '12.706205'],
    [30, '2.042272'],
  ])('the 97.5%% t quantile for %i degrees of freedom is the reference value', (df, t) => {
    expectPrinted(studentTQuantile(0.975, df), t);
  });
});

describe('statistics.md: repeats, pass@k and pass^k', () => {
  it('2 solved of 5 runs give pass@1 0.4, pass@2 0.7, pass^2 0.1', () => {
    expectPrinted(passAtK(5, 2, 1), '0.4000');
    expectPrinted(passAtK(5, 2, 2), '0.7000');
    expectPrinted(passHatK(5, 2, 2), '0.1000');
  });
});
