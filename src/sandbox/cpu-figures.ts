import type { StepCpu } from '../types.js';

/** A step is starved when it was held back from a CPU for at least this share of its wall time (decision 011) … */
export const STARVED_SHARE = 0.25;
/**
 * … and for at least this long: less than half a second in all is the wake-up latency of a short
 * step on any shared machine (a 0.5 s test run of a loaded CI runner was held back 0.2 s, 28 %,
 * alone and weighing like 100 processes), not a machine that set its pace (decision 011).
 */
export const STARVED_MIN_MS = 500;

/** What a step's processes did in one sampling interval. */
export interface CpuInterval {
  readonly intervalMs: number;
  /** CPU time the step's processes got in the interval. */
  readonly gotMs: number;
  /** Run-queue wait of the step's tasks that the interval's samples saw. */
  readonly waitMs: number;
  /** CPUs the step may use: its CPU limit, at most the machine's CPUs. */
  readonly capCpus: number;
}

/**
 * Wall time of one interval during which the step was held back by others: the CPU it asked
 * for (got + waited, never more than its limit allows in the interval) less the CPU it got,
 * spread over the CPUs it was asking for at once. Its own tasks waiting for each other (more
 * threads than its limit) ask for no more than the limit, so self-contention and its own quota
 * are never "held back"; a step that sleeps asks for nothing. Pure.
 */
export function heldBackMs(i: CpuInterval): number {
  if (i.intervalMs <= 0) return 0;
  const asked = Math.min(i.gotMs + i.waitMs, i.capCpus * i.intervalMs);
  const denied = asked - i.gotMs;
  if (denied <= 0) return 0;
  const parallel = Math.max(1, Math.min(i.capCpus, asked / i.intervalMs));
  return Math.min(i.intervalMs, denied / parallel);
}

/**
 * A step's figures from its sampled intervals, or from its cgroup's CPU pressure where the
 * kernel keeps one (`stall`: the µs its runnable tasks all waited, and the ns its own quota held
 * it, summed over CPUs — taken off whole, so a step never looks held back by its own limit),
 * and the host's pressure for context. Pure.
 */
export function stepCpuOf(options: {
  readonly wallMs: number;
  readonly cpuMs: number | null;
  readonly intervals: readonly CpuInterval[];
  readonly stall?: { readonly fullUs: number; readonly throttledNs: number } | null;
  readonly hostPressure: number | null;
}): StepCpu {
  const waitMs = options.intervals.reduce((a, i) => a + i.waitMs, 0);
  const { stall } = options;
  const raw = stall ? stall.fullUs / 1000 - stall.throttledNs / 1e6 : options.intervals.reduce((a, i) => a + heldBackMs(i), 0);
  const heldMs = Math.max(0, Math.min(options.wallMs, raw));
  return {
    wallMs: Math.round(options.wallMs),
    cpuMs: options.cpuMs === null ? null : Math.round(options.cpuMs),
    waitMs: Math.round(waitMs),
    heldMs: Math.round(heldMs),
    heldFrom: stall ? 'pressure' : 'schedstat',
    hostPressure: options.hostPressure === null ? null : Math.round(options.hostPressure * 1000) / 1000,
    starved: options.wallMs > 0 && heldMs >= Math.max(STARVED_MIN_MS, STARVED_SHARE * options.wallMs),
  };
}

/** A re-run's clock is the first clock times the slow-down the machine caused, at least this much … */
export const RERUN_MIN_STRETCH = 2;
/** … and at most this much: a command that spins forever costs at most this many clocks more. */
export const RERUN_MAX_STRETCH = 4;

/**
 * How much longer the clock of a re-run of a starved command is (decision 011): the slow-down
 * the machine caused (wall time over wall time not held back), between {@link RERUN_MIN_STRETCH}
 * and {@link RERUN_MAX_STRETCH}. Pure.
 */
export function rerunStretch(cpu: Pick<StepCpu, 'wallMs' | 'heldMs'>): number {
  const slowdown = cpu.wallMs / Math.max(1, cpu.wallMs - cpu.heldMs);
  return Math.min(RERUN_MAX_STRETCH, Math.max(RERUN_MIN_STRETCH, slowdown));
}

/** `300 s wall, 12 s CPU, held back 288 s (96 %) waiting for a CPU; host pressure 99 %`: the figures in a sentence. Pure. */
export function describeStepCpu(cpu: StepCpu): string {
  const sec = (ms: number): string => `${ms >= 10_000 ? Math.round(ms / 1000) : (ms / 1000).toFixed(1)} s`;
  const share = cpu.wallMs > 0 ? Math.round((100 * cpu.heldMs) / cpu.wallMs) : 0;
  const host = cpu.hostPressure === null ? '' : `; the host's CPU pressure ${Math.round(cpu.hostPressure * 100)} %`;
  return `${sec(cpu.wallMs)} wall, ${cpu.cpuMs === null ? 'CPU time unknown' : `${sec(cpu.cpuMs)} CPU`}, held back ${sec(cpu.heldMs)} (${share} %) waiting for a CPU${host}`;
}
