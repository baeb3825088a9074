import { rerunStretch, type ExecResult } from '../sandbox/index.js';
import type { StepCpu } from '../types.js';
import { holdQuiet, waitForRoom } from '../util/index.js';

/** One test run of a grading or admission step: its clock, whether it ran out, what the machine gave it. */
export interface TestAttempt {
  /** 1, or 2 for the re-run. */
  readonly attempt: number;
  readonly limitMs: number;
  readonly timedOut: boolean;
  readonly cpu: StepCpu | null;
}

/**
 * The clock of a re-run, or null when the test run's outcome counts as it is (decision 011):
 * only a run that hit its wall clock while starved (held back from a CPU for a quarter of its
 * wall time or more) is re-run. A run that sleeps, blocks or deadlocks is never starved, and
 * one that spins got the CPU it was given: neither is re-run for waiting on itself. The re-run's
 * clock stretches the test clock by how much the machine slowed the first run (`rerunStretch`:
 * 2 to 4 times). Pure.
 */
export function rerunClockMs(exec: Pick<ExecResult, 'timedOut' | 'cpu'>, timeoutMs: number): number | null {
  if (!exec.timedOut || !exec.cpu?.starved) return null;
  return Math.round(timeoutMs * rerunStretch(exec.cpu));
}

/** What a test step came to: the final run (the one that counts) and every attempt's figures. */
export interface RerunResult<T> {
  readonly result: T;
  readonly attempts: readonly TestAttempt[];
}

/** How a re-run is made: 2 for the re-run; `weighted`, its sandboxes weigh like many processes (`weightedIsolation`). */
export interface RerunHow {
  readonly n: 1 | 2;
  readonly weighted: boolean;
}

/**
 * Runs a test step, and once more when the machine starved it (decision 011):
 * - it timed out while starved ({@link rerunClockMs}): alone — this bakeoff starts no new run
 *   meanwhile, and the re-run waits (up to the test clock) for the host to have a free CPU —
 *   with the longer clock;
 * - it finished, starved, and `failedWhenStarved` says its outcome is a failure a held-back run
 *   can cause (a test that times its own work): with the same clock and its sandboxes
 *   `weighted`, as verify's re-check is, so that the re-run gets the CPU a quiet machine gives
 *   (without holding the bake quiet: on a loaded machine many failures are starved).
 * The re-run's outcome counts, whatever it is: a change that really hangs fails `test-timeout`
 * after it, a change that really fails fails again, never void. `attempt(timeoutMs, how)` must
 * start from a clean tree each time.
 */
export async function withStarvedRerun<T>(
  attempt: (timeoutMs: number, how: RerunHow) => Promise<T>,
  options: {
    readonly timeoutMs: number;
    readonly execOf: (result: T) => Pick<ExecResult, 'timedOut' | 'cpu'>;
    readonly failedWhenStarved?: (result: T) => boolean;
  },
): Promise<RerunResult<T>> {
  const figures = (n: number, limitMs: number, exec: Pick<ExecResult, 'timedOut' | 'cpu'>): TestAttempt => ({ attempt: n, limitMs, timedOut: exec.timedOut, cpu: exec.cpu ?? null });
  const first = await attempt(options.timeoutMs, { n: 1, weighted: false });
  const exec = options.execOf(first);
  const attempts = [figures(1, options.timeoutMs, exec)];
  const clockMs = rerunClockMs(exec, options.timeoutMs);
  const failedStarved = clockMs === null && !exec.timedOut && exec.cpu?.starved === true && (options.failedWhenStarved?.(first) ?? false);
  if (clockMs === null && !failedStarved) return { result: first, attempts };
  if (failedStarved) {
    // the weight is what gets it the CPU; holding the bake quiet for every starved failure would serialise a loaded bake
    const second = await attempt(options.timeoutMs, { n: 2, weighted: true });
    return { result: second, attempts: [...attempts, figures(2, options.timeoutMs, options.execOf(second))] };
  }
  const release = holdQuiet();
  try {
    await waitForRoom({ maxWaitMs: options.timeoutMs });
    const second = await attempt(clockMs!, { n: 2, weighted: false });
    return { result: second, attempts: [...attempts, figures(2, clockMs!, options.execOf(second))] };
  } finally {
    release();
  }
}

/**
 * `the test command timed out after 300 s` and, after a re-run, how the re-run went; `stable`
 * leaves out the re-run's clock (measured), for reasons a lock file keeps. Pure.
 */
export function describeTestTimeout(attempts: readonly TestAttempt[], options: { readonly stable?: boolean } = {}): string {
  const first = attempts[0];
  const sec = (ms: number): string => `${Math.round(ms / 1000)} s`;
  if (!first) return 'the test command timed out';
  const again = attempts[1];
  if (!again) return `the test command timed out after ${sec(first.limitMs)}`;
  const clock = options.stable ? 'a longer clock' : `a ${sec(again.limitMs)} clock`;
  return `the test command timed out after ${sec(first.limitMs)} while the machine held it back from a CPU, and again when re-run alone with ${clock}`;
}
