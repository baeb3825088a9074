// @ts-check
// The time budget of one check, polled by QuickJS's interrupt handler: the CPU time of the
// worker thread (the CPU limit) and, as a separate and generous backstop, wall time. Plain
// JavaScript because the check worker imports it (see resolveCheckWorker in start-check-worker.ts).

/**
 * Least wall time between two reads of the CPU clock. QuickJS calls the interrupt handler
 * every few thousand bytecode operations (measured: 1.2–3 calls per ms of a hot loop), and a
 * read costs about 4.5 µs; with this gate a read happens at most once per millisecond, so a
 * check can run at most ~1 ms of CPU (plus one call interval) past its limit before it is seen.
 */
export const CLOCK_READ_EVERY_MS = 1;

/**
 * @typedef {import('./thread-cpu-clock.mjs').CpuClock} CpuClock
 * @typedef {object} CheckBudget
 * @property {{ cpuMs: number, wallBackstopMs: number }} limits
 * @property {'cpu' | 'wall' | undefined} stopped - which limit stopped the check, once one has
 * @property {() => boolean} poll - the interrupt handler: true stops the VM (and keeps stopping it)
 * @property {() => number} cpuMs - CPU time of this thread since the budget started
 * @property {() => number} wallMs - wall time since the budget started
 */

/**
 * Starts a check's budget now. The CPU limit is checked against `clock` (this thread's CPU
 * time, see thread-cpu-clock.mjs), the backstop against `performance.now()`.
 * @param {CpuClock} clock
 * @param {{ cpuMs: number, wallBackstopMs: number }} limits
 * @param {number} [cpuStart] - the clock read just now, when the caller has already read it
 * @returns {CheckBudget}
 */
export function startBudget(clock, limits, cpuStart = clock.readNs()) {
  const wallStart = performance.now();
  const cpuLimitNs = limits.cpuMs * 1e6;
  let lastRead = wallStart;
  /** @type {CheckBudget} */
  const budget = {
    limits: { cpuMs: limits.cpuMs, wallBackstopMs: limits.wallBackstopMs },
    stopped: undefined,
    poll: () => {
      if (budget.stopped) return true;
      const now = performance.now();
      if (now - lastRead < CLOCK_READ_EVERY_MS) return false;
      lastRead = now;
      if (clock.readNs() - cpuStart > cpuLimitNs) budget.stopped = 'cpu';
      else if (now - wallStart > limits.wallBackstopMs) budget.stopped = 'wall';
      return budget.stopped !== undefined;
    },
    cpuMs: () => (clock.readNs() - cpuStart) / 1e6,
    wallMs: () => performance.now() - wallStart,
  };
  return budget;
}
