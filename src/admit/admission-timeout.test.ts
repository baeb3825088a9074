import { describe, expect, it } from 'vitest';
import type { TestAttempt } from '../grade/index.js';
import { admissionTimeout } from './admission-timeout.js';

const cpu = (heldMs: number) => ({ wallMs: 10_000, cpuMs: 500, waitMs: heldMs, heldMs, heldFrom: 'pressure' as const, hostPressure: null, starved: heldMs >= 2_500 });
const attempt = (n: number, limitMs: number, timedOut: boolean, heldMs: number): TestAttempt => ({ attempt: n, limitMs, timedOut, cpu: cpu(heldMs) });

describe('what an admission test run cut at its clock comes to', () => {
  it('is nothing when the run that counts finished, a re-run that saved a starved one included', () => {
    expect(admissionTimeout([attempt(1, 300_000, false, 0)], 'gold-2')).toBeNull();
    expect(admissionTimeout([attempt(1, 300_000, true, 8_000), attempt(2, 900_000, false, 0)], 'gold-2')).toBeNull();
  });

  it('names a gold run cut at its clock a timeout, with the limit and the run, never the tests it cut off', () => {
    expect(admissionTimeout([attempt(1, 300_000, true, 0)], 'gold-2')).toEqual({
      kind: 'timeout',
      reason: 'the test command timed out after 300 s on the gold-2 run (controls.testWallClockSec; see its log)',
    });
  });

  it('names one that timed out starved and again alone a timeout, without the measured clock of the re-run (the lock keeps the reason)', () => {
    expect(admissionTimeout([attempt(1, 300_000, true, 8_000), attempt(2, 913_000, true, 100)], 'order 2 baseline')).toEqual({
      kind: 'timeout',
      reason: 'the test command timed out after 300 s while the machine held it back from a CPU, and again when re-run alone with a longer clock on the order 2 baseline run (controls.testWallClockSec; see its log)',
    });
  });

  it('decides nothing when the machine starved the re-run too', () => {
    const verdict = admissionTimeout([attempt(1, 300_000, true, 8_000), attempt(2, 900_000, true, 6_000)], 'gold-1');
    expect(verdict).toEqual({
      kind: 'machine-starved',
      message: 'the test command timed out after 300 s while the machine held it back from a CPU, and again when re-run alone with a 900 s clock on the gold-1 run, and the machine held the re-run back from a CPU too (held back 60 % of its 10 s): validate again when the machine is less busy',
    });
  });
});
