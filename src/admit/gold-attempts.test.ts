import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../grade/checks/types.js';
import { goldAttemptNotes, goldFailureReason, heaviestGoldNote, type GoldAttempt } from './gold-attempts.js';

const pass = (id: string, cpuMs: number): CheckResult => ({ id, passed: true, durationMs: cpuMs * 3, cpuMs });
const timeout = (id: string, cpuMs: number): CheckResult => ({ id, passed: false, failure: 'timeout', message: `the check used more than its 500 ms of CPU time: ${cpuMs} ms …`, durationMs: 2300, cpuMs });
const wrong = (id: string): CheckResult => ({ id, passed: false, failure: 'wrong-result', message: 'expected 1, got 2', durationMs: 5, cpuMs: 4 });
const attempt = (n: number, results: CheckResult[]): GoldAttempt => ({ order: 1, seed: 2, level: 3, attempt: n, results });

describe('the gold attempts of a checks-graded order', () => {
  it('admit when every attempt scores full, and name the heaviest check with its CPU time against the limit', () => {
    const golds = [attempt(1, [pass('a', 40), pass('b', 120.4)]), attempt(2, [pass('a', 44), pass('b', 131.6)])];
    expect(goldFailureReason(golds, 500)).toBeUndefined();
    expect(heaviestGoldNote(golds, 500)).toBe("the gold's heaviest check: order 1, seed 2, level 3, b (132 ms of CPU time of its 500 ms limit, 26%; 395 ms wall)");
  });

  it('call a gold that scores full only sometimes load-sensitive, naming the seed, level and checks, with points and CPU time per attempt in the notes', () => {
    const golds = [attempt(1, [pass('a', 40), pass('b', 480)]), attempt(2, [pass('a', 41), timeout('b', 502)])];
    expect(goldFailureReason(golds, 500)).toBe(
      'the gold is load-sensitive at seed 2, level 3: it does not score full in every one of 2 attempts (failed in some: b (timeout: over the 500 ms CPU limit)); ' +
        'make the checks at this level cheaper or the gold faster, or run validate on a machine that is not busy to see whether the machine is the cause',
    );
    expect(goldAttemptNotes(golds, 500)).toEqual([
      'order 1, seed 2, level 3, attempt 1: 2/2; heaviest check b (480 ms of CPU time of its 500 ms limit, 96%; 1440 ms wall)',
      'order 1, seed 2, level 3, attempt 2: 1/2; failed: b timeout (502 ms of CPU time of its 500 ms limit, 100%; 2300 ms wall)',
    ]);
  });

  it('give a gold that fails the same checks every time a reason without measured times, so the lock reads the same next time', () => {
    const first = [attempt(1, [wrong('a'), timeout('b', 503)]), attempt(2, [wrong('a'), timeout('b', 517)])];
    const again = [attempt(1, [wrong('a'), timeout('b', 509)]), attempt(2, [wrong('a'), timeout('b', 501)])];
    const reason = 'the gold scores 0/2 at seed 2, level 3 in all 2 attempts: a (wrong-result: expected 1, got 2), b (timeout: over the 500 ms CPU limit)';
    expect(goldFailureReason(first, 500)).toBe(reason);
    expect(goldFailureReason(again, 500)).toBe(reason);
  });
});
