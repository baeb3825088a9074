import { describe, expect, it } from 'vitest';
import type { TestStatus } from '../grade/index.js';
import { shiftedClockReason } from './shifted-clock-reason.js';

const runs = (s: Record<string, TestStatus>): Map<string, TestStatus> => new Map(Object.entries(s));
const clock = { offset: '+7y', timeZone: 'Pacific/Kiritimati' };

describe('why a gold whose shifted-clock run differs is rejected', () => {
  it.each([
    ['a third run agreeing with the first: the date', { a: 'pass', b: 'pass' }, { a: 'fail', b: 'pass' }, { a: 'pass', b: 'pass' }, 'depends on the date or time zone: a change under TZ=Pacific/Kiritimati with the clock moved +7y'],
    ['a third run differing on the same test: flaky', { a: 'pass', b: 'pass' }, { a: 'fail', b: 'pass' }, { a: 'fail', b: 'pass' }, 'flaky: the first and a third gold run disagree on a (pass, then fail); the run under a shifted clock changed them too, so the clock is not what changes them'],
    ['a third run missing the test: flaky', { a: 'pass' }, { a: 'fail' }, {}, 'flaky: the first and a third gold run disagree on a (pass, then missing); the run under a shifted clock changed them too, so the clock is not what changes them'],
    ['a third run differing elsewhere only: the date, and flaky as well', { a: 'pass', b: 'pass' }, { a: 'fail', b: 'pass' }, { a: 'pass', b: 'fail' }, 'depends on the date or time zone: a change under TZ=Pacific/Kiritimati with the clock moved +7y; flaky as well: the first and a third gold run disagree on b (pass, then fail)'],
  ] as const)('%s', (_name, gold1, shifted, gold3, reason) => {
    expect(shiftedClockReason({ gold1: runs(gold1), shifted: runs(shifted), gold3: runs(gold3) }, clock)).toBe(reason);
  });

  it('says only the time zone moved when the clock could not be', () => {
    expect(shiftedClockReason({ gold1: runs({ a: 'pass' }), shifted: runs({ a: 'fail' }), gold3: runs({ a: 'pass' }) }, { timeZone: 'Pacific/Kiritimati' })).toBe(
      'depends on the time zone: a change under TZ=Pacific/Kiritimati (the clock was not moved)',
    );
  });
});
