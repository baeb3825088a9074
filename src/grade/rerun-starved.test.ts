import { describe, expect, it } from 'vitest';
import type { StepCpu } from '../types.js';
import { describeTestTimeout, rerunClockMs, withStarvedRerun } from './rerun-starved.js';

const cpu = (over: Partial<StepCpu>): StepCpu => ({ wallMs: 10_000, cpuMs: 400, waitMs: 9000, heldMs: 9000, heldFrom: 'pressure', hostPressure: 1, starved: true, ...over });

describe('rerunClockMs', () => {
  it('re-runs only a test run that timed out while starved', () => {
    expect(rerunClockMs({ timedOut: false, cpu: cpu({}) }, 10_000)).toBeNull();
    expect(rerunClockMs({ timedOut: true, cpu: cpu({ heldMs: 10, starved: false }) }, 10_000)).toBeNull();
    expect(rerunClockMs({ timedOut: true, cpu: null }, 10_000)).toBeNull();
  });

  it('stretches the clock by the slow-down it saw, between 2 and 4 times', () => {
    // held 90 % of 10 s: a slow-down of 10, capped at 4
    expect(rerunClockMs({ timedOut: true, cpu: cpu({}) }, 10_000)).toBe(40_000);
    // held 60 %: a slow-down of 2.5
    expect(rerunClockMs({ timedOut: true, cpu: cpu({ heldMs: 6000 }) }, 10_000)).toBe(25_000);
    // held 30 %: at least twice the clock
    expect(rerunClockMs({ timedOut: true, cpu: cpu({ heldMs: 3000 }) }, 10_000)).toBe(20_000);
  });
});

describe('withStarvedRerun', () => {
  const exec = (timedOut: boolean, starved: boolean) => ({ timedOut, cpu: cpu({ starved, heldMs: starved ? 9000 : 0 }) });

  it('runs once when the first run counts (in time, or a timeout that was not starved)', async () => {
    for (const first of [exec(false, true), exec(true, false)]) {
      const clocks: number[] = [];
      const out = await withStarvedRerun(async (ms) => (clocks.push(ms), first), { timeoutMs: 50, execOf: (e) => e });
      expect(clocks).toEqual([50]);
      expect(out.attempts).toHaveLength(1);
    }
  });

  it('re-runs a starved timeout once with the longer clock, and the re-run counts, even when it times out again', async () => {
    const clocks: number[] = [];
    const out = await withStarvedRerun(async (ms, n) => (clocks.push(ms), { ...exec(true, true), n }), { timeoutMs: 50, execOf: (e) => e });
    expect(clocks).toEqual([50, 200]);
    expect(out.result.n).toBe(2);
    expect(out.attempts.map((a) => [a.attempt, a.limitMs, a.timedOut])).toEqual([[1, 50, true], [2, 200, true]]);
    expect(describeTestTimeout(out.attempts)).toBe('the test command timed out after 0 s while the machine held it back from a CPU, and again when re-run alone with a 0 s clock');
  });
});
