import type { ClockShift } from '../sandbox/index.js';
import { differences, disagreement, list, type Statuses } from './compare-runs.js';

/** The statuses of the three gold runs compared when the shifted-clock run differs from gold-1. */
export interface ClockRuns {
  readonly gold1: Statuses;
  /** The gold under the shifted clock and time zone. */
  readonly shifted: Statuses;
  /** A third gold run, unshifted: does the difference come from the clock or from chance? */
  readonly gold3: Statuses;
}

/**
 * Why a task whose shifted-clock gold run differs from gold-1 is rejected. gold-1 and gold-2
 * can agree by chance on a test that passes at random; so when gold-3, run like gold-1, also
 * differs from gold-1 on a test the shifted run changed, that test is flaky, not bound to the
 * date. Otherwise the task depends on the date or time zone (and, when gold-3 differs on other
 * tests, is flaky as well). Pure.
 */
export function shiftedClockReason(runs: ClockRuns, clock: ClockShift): string {
  const dateDrift = differences(runs.gold1, runs.shifted);
  const thirdDrift = differences(runs.gold1, runs.gold3);
  const chance = thirdDrift.filter((id) => dateDrift.includes(id));
  if (chance.length > 0) {
    return `flaky: the first and a third gold run disagree on ${disagreement(chance, runs.gold1, runs.gold3)}; the run under a shifted clock changed them too, so the clock is not what changes them`;
  }
  const dated = clock.offset === undefined
    ? `depends on the time zone: ${list(dateDrift)} change under TZ=${clock.timeZone} (the clock was not moved)`
    : `depends on the date or time zone: ${list(dateDrift)} change under TZ=${clock.timeZone} with the clock moved ${clock.offset}`;
  if (thirdDrift.length === 0) return dated;
  return `${dated}; flaky as well: the first and a third gold run disagree on ${disagreement(thirdDrift, runs.gold1, runs.gold3)}`;
}
