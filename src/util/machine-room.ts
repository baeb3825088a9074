import { readFile } from 'node:fs/promises';
import os from 'node:os';

/**
 * Whether this machine has room for more busy work, measured (decision 011): how many tasks
 * were runnable (running or waiting for a CPU, `/proc/stat` `procs_running`, less the reader
 * itself) against the CPUs there are, averaged over a few samples; and the host's CPU pressure
 * for context. `--concurrency auto` starts another run only while there is room, and a test
 * run re-run after a starved timeout waits for room first.
 */
export interface HostLoad {
  /** Mean runnable tasks over the samples, this process's reading thread not counted. */
  readonly runnable: number;
  readonly cpus: number;
  /** /proc/pressure/cpu `some avg10` as a share (0–1), or null without PSI. */
  readonly pressure10: number | null;
}

/** Samples the host's runnable tasks `samples` times, `gapMs` apart. */
export async function readHostLoad(options: { readonly samples?: number; readonly gapMs?: number } = {}): Promise<HostLoad> {
  const samples = options.samples ?? 5;
  let sum = 0;
  let seen = 0;
  for (let i = 0; i < samples; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, options.gapMs ?? 200));
    const stat = await readFile('/proc/stat', 'utf8').catch(() => '');
    const running = /^procs_running (\d+)$/m.exec(stat);
    if (running) {
      sum += Math.max(0, Number(running[1]) - 1);
      seen++;
    }
  }
  const psi = await readFile('/proc/pressure/cpu', 'utf8').catch(() => '');
  const avg10 = /^some avg10=([\d.]+)/m.exec(psi);
  return { runnable: seen === 0 ? 0 : sum / seen, cpus: os.availableParallelism(), pressure10: avg10 ? Number(avg10[1]) / 100 : null };
}

/** Room for one more busy task: fewer runnable tasks than CPUs, so a CPU is free on average. Pure. */
export function hasRoom(load: HostLoad): boolean {
  return load.runnable < load.cpus;
}

/** `6.3 runnable tasks on 2 CPUs, CPU pressure 97 %`. Pure. */
export function describeHostLoad(load: HostLoad): string {
  const pressure = load.pressure10 === null ? '' : `, CPU pressure ${Math.round(load.pressure10 * 100)} %`;
  return `${load.runnable.toFixed(1)} runnable tasks on ${load.cpus} CPU${load.cpus === 1 ? '' : 's'}${pressure}`;
}

let quietHolds = 0;
const quietWaiters: (() => void)[] = [];

/**
 * Holds this bakeoff quiet: no new run starts (whatever `--concurrency` says) until every hold
 * is released. A test run re-run after a starved timeout holds it, so the re-run competes with
 * as little of bakeoff's own work as it can. Returns the release (idempotent).
 */
export function holdQuiet(): () => void {
  quietHolds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    quietHolds--;
    if (quietHolds === 0) for (const wake of quietWaiters.splice(0)) wake();
  };
}

/** Whether a quiet hold is held now. */
export function quietHeld(): boolean {
  return quietHolds > 0;
}

/** Resolves once no quiet hold is held (at once when none is). */
export function whenNotQuiet(): Promise<void> {
  return quietHolds === 0 ? Promise.resolve() : new Promise((resolve) => quietWaiters.push(resolve));
}

/**
 * Waits until the host has room ({@link hasRoom}), checking every `everyMs`, for at most
 * `maxWaitMs`; returns the last reading and how long it waited. Never throws.
 */
export async function waitForRoom(options: { readonly maxWaitMs: number; readonly everyMs?: number }): Promise<{ readonly load: HostLoad; readonly waitedMs: number }> {
  const started = performance.now();
  for (;;) {
    const load = await readHostLoad();
    const waitedMs = performance.now() - started;
    if (hasRoom(load) || waitedMs >= options.maxWaitMs) return { load, waitedMs };
    await new Promise((r) => setTimeout(r, Math.min(options.everyMs ?? 2000, Math.max(0, options.maxWaitMs - waitedMs))));
  }
}
