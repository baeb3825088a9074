import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import type { StepCpu } from '../types.js';
import { stepCpuOf, type CpuInterval } from './cpu-figures.js';

/** Where a step's processes are: its cgroup (`CommandCgroup` has both). */
export interface CpuSource {
  /** CPU time the step's processes used so far, exited ones included, in ns (null: unreadable). */
  cpuUsageNs(): Promise<number | null>;
  /** The step's processes now. */
  pids(): Promise<number[]>;
  /** µs during which all the step's runnable tasks waited for a CPU (its cgroup's `cpu.pressure` full), or null where none is kept. */
  cpuFullStallUs?(): Promise<number | null>;
  /** ns its own CPU quota held it back, summed over CPUs. */
  throttledNs?(): Promise<number>;
}

/** A step being watched: sample on demand (before a timeout's kill), then stop for its figures. */
export interface StepWatch {
  /** Takes a sample now (the figures of a step about to be killed are complete up to here). */
  sample(): Promise<void>;
  /** Stops sampling, takes a last sample, and returns the step's figures. Call before the group is removed. */
  stop(): Promise<StepCpu>;
}

/** How often a step is sampled: run-queue waits are counted when a task next runs, so intervals of a second keep them in place. */
const INTERVAL_MS = 1000;

/**
 * Watches one step's processes (decision 011): every second, the CPU time of its cgroup and the
 * run-queue wait of each of its tasks (`/proc/<pid>/task/<tid>/schedstat`, field 2), as deltas
 * per interval. A task that exits between two samples takes its last wait with it, so the summed
 * wait is a lower bound; the CPU time is exact. Where the cgroup keeps its own CPU pressure
 * (cgroup v2, or a v1 host's unified hierarchy) the time it was held back comes from that,
 * exact and with exited processes; else from the samples (a lower bound: a step never looks
 * more starved than it was).
 */
export function watchStepCpu(source: CpuSource, options: { readonly capCpus: number; readonly intervalMs?: number }): StepWatch {
  const started = performance.now();
  const capCpus = Math.max(1, Math.min(options.capCpus, os.availableParallelism()));
  const intervals: CpuInterval[] = [];
  const tasks = new Map<string, { exec: number; wait: number }>();
  const hostStart = readHostPressureUs();
  const stallStart = readStall(source);
  let lastAt = started;
  let lastUsageNs = 0;
  let usageKnown = true;
  let running: Promise<void> | null = null;

  const sampleOnce = async (): Promise<void> => {
    const [usage, seen] = await Promise.all([source.cpuUsageNs(), readTasks(source, tasks)]);
    const now = performance.now();
    if (usage === null) usageKnown = false;
    const gotNs = usage !== null ? Math.max(0, usage - lastUsageNs) : seen.execNs;
    if (usage !== null) lastUsageNs = usage;
    intervals.push({ intervalMs: now - lastAt, gotMs: gotNs / 1e6, waitMs: seen.waitNs / 1e6, capCpus });
    lastAt = now;
  };
  const sample = (): Promise<void> => {
    running ??= sampleOnce().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => void sample().catch(() => {}), options.intervalMs ?? INTERVAL_MS);
  timer.unref();
  return {
    sample,
    stop: async () => {
      clearInterval(timer);
      await running?.catch(() => {});
      await sample().catch(() => {});
      const wallMs = performance.now() - started;
      const [from, to, stallFrom, stallTo] = await Promise.all([hostStart, readHostPressureUs(), stallStart, readStall(source)]);
      const cpuMs = usageKnown ? lastUsageNs / 1e6 : null;
      const hostPressure = from !== null && to !== null && wallMs > 0 ? Math.min(1, Math.max(0, (to - from) / 1000 / wallMs)) : null;
      const stall = stallFrom !== null && stallTo !== null ? { fullUs: stallTo.fullUs - stallFrom.fullUs, throttledNs: stallTo.throttledNs - stallFrom.throttledNs } : null;
      return stepCpuOf({ wallMs, cpuMs, intervals, stall, hostPressure });
    },
  };
}

/** The CPU and wait each task of the step added since it was last seen (a task first seen adds all it has). */
async function readTasks(source: CpuSource, last: Map<string, { exec: number; wait: number }>): Promise<{ execNs: number; waitNs: number }> {
  let execNs = 0;
  let waitNs = 0;
  for (const pid of await source.pids().catch(() => [])) {
    const tids = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
    for (const tid of tids) {
      const text = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => null);
      if (text === null) continue;
      const [exec, wait] = text.trim().split(/\s+/).map(Number);
      if (!Number.isFinite(exec) || !Number.isFinite(wait)) continue;
      const key = `${pid}/${tid}`;
      const before = last.get(key);
      // a smaller count than last time is another task under a reused id: all of it is new
      const fresh = before === undefined || exec! < before.exec || wait! < before.wait;
      execNs += fresh ? exec! : exec! - before.exec;
      waitNs += fresh ? wait! : wait! - before.wait;
      last.set(key, { exec: exec!, wait: wait! });
    }
  }
  return { execNs, waitNs };
}

/** The source's own CPU pressure and quota throttling so far, or null where its cgroup keeps no pressure. */
async function readStall(source: CpuSource): Promise<{ fullUs: number; throttledNs: number } | null> {
  const fullUs = (await source.cpuFullStallUs?.().catch(() => null)) ?? null;
  if (fullUs === null) return null;
  return { fullUs, throttledNs: (await source.throttledNs?.().catch(() => 0)) ?? 0 };
}

/** The host's total `some` CPU stall in µs (/proc/pressure/cpu), or null without PSI. */
async function readHostPressureUs(): Promise<number | null> {
  const text = await readFile('/proc/pressure/cpu', 'utf8').catch(() => null);
  const total = text === null ? null : /^some .*total=(\d+)/m.exec(text);
  return total ? Number(total[1]) : null;
}
