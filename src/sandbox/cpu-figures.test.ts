import { describe, expect, it } from 'vitest';
import { heldBackMs, stepCpuOf } from './cpu-figures.js';

describe('heldBackMs', () => {
  it('is the wait of a single task that was runnable the whole interval', () => {
    expect(heldBackMs({ intervalMs: 1000, gotMs: 40, waitMs: 960, capCpus: 2 })).toBe(960);
  });

  it('is nothing for a step that sleeps or blocks, however busy the host', () => {
    expect(heldBackMs({ intervalMs: 1000, gotMs: 0, waitMs: 0, capCpus: 2 })).toBe(0);
    expect(heldBackMs({ intervalMs: 1000, gotMs: 3, waitMs: 2, capCpus: 2 })).toBe(2);
  });

  it('is nothing for a step whose many threads wait for each other while it has every CPU it may use', () => {
    // 50 spinning threads on 2 CPUs of a quiet machine: 2 s of CPU per second, 48 s of waiting
    expect(heldBackMs({ intervalMs: 1000, gotMs: 2000, waitMs: 48_000, capCpus: 2 })).toBe(0);
  });

  it('is nothing for a step held to its own CPU limit (its quota), however many threads wait', () => {
    expect(heldBackMs({ intervalMs: 1000, gotMs: 1000, waitMs: 1000, capCpus: 1 })).toBe(0);
  });

  it('spreads what many threads were denied over the CPUs they asked for at once', () => {
    // 50 threads given 80 ms of 2 CPUs by a loaded host: held back 96 % of the interval
    expect(heldBackMs({ intervalMs: 1000, gotMs: 80, waitMs: 49_000, capCpus: 2 })).toBe(960);
  });

  it('never exceeds the interval', () => {
    expect(heldBackMs({ intervalMs: 500, gotMs: 0, waitMs: 5000, capCpus: 1 })).toBe(500);
  });
});

describe('stepCpuOf', () => {
  it('calls a step starved when it was held back for a quarter of its wall time or more', () => {
    const intervals = [
      { intervalMs: 1000, gotMs: 700, waitMs: 300, capCpus: 1 },
      { intervalMs: 1000, gotMs: 800, waitMs: 200, capCpus: 1 },
    ];
    expect(stepCpuOf({ wallMs: 2000, cpuMs: 1500, intervals, hostPressure: 0.9 })).toEqual({
      wallMs: 2000, cpuMs: 1500, waitMs: 500, heldMs: 500, heldFrom: 'schedstat', hostPressure: 0.9, starved: true,
    });
    expect(stepCpuOf({ wallMs: 2001, cpuMs: 1500, intervals, hostPressure: null }).starved).toBe(false);
  });

  it('does not call a short step starved for less than half a second held back, whatever its share', () => {
    const short = [{ intervalMs: 500, gotMs: 200, waitMs: 300, capCpus: 1 }];
    expect(stepCpuOf({ wallMs: 500, cpuMs: 200, intervals: short, hostPressure: 1 })).toMatchObject({ heldMs: 300, starved: false });
    const held = [{ intervalMs: 800, gotMs: 200, waitMs: 600, capCpus: 1 }];
    expect(stepCpuOf({ wallMs: 800, cpuMs: 200, intervals: held, hostPressure: 1 })).toMatchObject({ heldMs: 600, starved: true });
  });

  it('takes the held-back time from the cgroup\'s own pressure where there is one, less what its own quota held it', () => {
    const cpu = stepCpuOf({ wallMs: 10_000, cpuMs: 400, intervals: [], stall: { fullUs: 9_000_000, throttledNs: 1_000_000_000 }, hostPressure: 1 });
    expect(cpu).toMatchObject({ heldMs: 8000, heldFrom: 'pressure', starved: true });
    // a step stalled only by its own quota is not held back
    expect(stepCpuOf({ wallMs: 10_000, cpuMs: 10_000, intervals: [], stall: { fullUs: 5_000_000, throttledNs: 10_000_000_000 }, hostPressure: 0 })).toMatchObject({ heldMs: 0, starved: false });
  });

  it('does not call a sleeping step starved on a saturated host', () => {
    const idle = Array.from({ length: 10 }, () => ({ intervalMs: 1000, gotMs: 1, waitMs: 3, capCpus: 2 }));
    expect(stepCpuOf({ wallMs: 10_000, cpuMs: 10, intervals: idle, hostPressure: 1 })).toMatchObject({ heldMs: 30, starved: false });
  });
});
