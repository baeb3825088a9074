/**
 * The reference values of /work/shared/notes/statistics.md, section "Power" (computed
 * independently: exact enumeration, SciPy 1.17 for t quantiles and binomial tests). A value
 * passes when it rounds to the printed one; an MDD on the 0.005 grid must be the printed one.
 */
import { describe, expect, it } from 'vitest';
import { mcnemarMdd, mcnemarPower } from './mcnemar-power.js';
import { pairedTMdd } from './paired-t-power.js';

function expectPrinted(actual: number, printed: string): void {
  const decimals = printed.split('.')[1]?.length ?? 0;
  expect(Math.abs(actual - Number(printed))).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-12);
}

describe('statistics.md: power of the exact McNemar test, one run per task', () => {
  it.each([
    [20, 0.25, 0.05, '0.1956'],
    [30, 0.2, 0.05, '0.2354'],
    [50, 0.15, 0.05, '0.2412'],
    [30, 0.3, 0.1, '0.3071'],
  ])('%i tasks, p10 = %f, p01 = %f: power is the reference value', (tasks, p10, p01, power) => {
    expectPrinted(mcnemarPower(tasks, p10, p01), power);
  });

  it.each([
    [0.3, 20, null], [0.3, 30, 0.275], [0.3, 40, 0.245], [0.3, 50, 0.22],
    [0.4, 20, 0.385], [0.4, 30, 0.325], [0.4, 40, 0.285], [0.4, 50, 0.255],
    [0.5, 20, 0.435], [0.5, 30, 0.365], [0.5, 40, 0.32], [0.5, 50, 0.29],
  ])('discordance %f over %i tasks: the MDD is the reference value (null: not reachable)', (psi, tasks, mdd) => {
    const result = mcnemarMdd(tasks, psi);
    if (mdd === null) expect(result.mdd).toBeNull();
    else expect(result.mdd).toBeCloseTo(mdd, 9);
  });

  it('30 tasks, discordance 0.4: power 0.8135 at d = 0.325 and 0.7944 at d = 0.320', () => {
    expectPrinted(mcnemarPower(30, (0.4 + 0.325) / 2, (0.4 - 0.325) / 2), '0.8135');
    expectPrinted(mcnemarPower(30, (0.4 + 0.32) / 2, (0.4 - 0.32) / 2), '0.7944');
    expectPrinted(mcnemarMdd(30, 0.4).power, '0.8135');
  });
});

describe('statistics.md: k runs per task, paired t on per-task shares', () => {
  const table: [sdB: number, w: number, tasks: number, byRuns: Record<number, string>][] = [
    [0.2, 0.2, 20, { 1: '0.324', 2: '0.247', 3: '0.216', 5: '0.187', 10: '0.162' }],
    [0.2, 0.2, 30, { 1: '0.259', 2: '0.198', 3: '0.173', 5: '0.150', 10: '0.130' }],
    [0.2, 0.2, 50, { 1: '0.198', 2: '0.151', 3: '0.132', 5: '0.114', 10: '0.099' }],
    [0.3, 0.3, 30, { 1: '0.331', 2: '0.259', 3: '0.231', 5: '0.205', 10: '0.183' }],
    [0.4, 0.25, 30, { 1: '0.339', 2: '0.283', 3: '0.261', 5: '0.243', 10: '0.228' }],
  ];
  for (const [sdB, w, tasks, byRuns] of table) {
    it(`sd_b ${sdB}, w ${w}, ${tasks} tasks: the MDD for 1, 2, 3, 5 and 10 runs is the reference row`, () => {
      for (const [runs, mdd] of Object.entries(byRuns)) {
        expectPrinted(pairedTMdd({ tasks, runsPerTask: Number(runs), betweenSd: sdB, withinVar: w }), mdd);
      }
    });
  }
});
