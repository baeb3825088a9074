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

/**
 * Runs a test step, and once more when it timed out while the machine starved it
 * ({@link rerunClockMs}): alone — this bakeoff starts no new run meanwhile, and the re-run
 * waits (up to the test clock) for the host to have a free CPU — with the longer clock. The
 * re-run's outcome counts, whatever it is: a change that really hangs fails `test-timeout`
 * after it, never void. `attempt(timeoutMs, n)` must start from a clean tree each time.
 */
export async function withStarvedRerun<T>(
  attempt: (timeoutMs: number, n: 1 | 2) => Promise<T>,
  options: { readonly timeoutMs: number; readonly execOf: (result: T) => Pick<ExecResult, 'timedOut' | 'cpu'> },
): Promise<RerunResult<T>> {
  const figures = (n: number, limitMs: number, exec: Pick<ExecResult, 'timedOut' | 'cpu'>): TestAttempt => ({ attempt: n, limitMs, timedOut: exec.timedOut, cpu: exec.cpu ?? null });
  const first = await attempt(options.timeoutMs, 1);
  const exec = options.execOf(first);
  const clockMs = rerunClockMs(exec, options.timeoutMs);
  const attempts = [figures(1, options.timeoutMs, exec)];
  if (clockMs === null) return { result: first, attempts };
  const release = holdQuiet();
  try {
    await waitForRoom({ maxWaitMs: options.timeoutMs });
    const second = await attempt(clockMs, 2);
    return { result: second, attempts: [...attempts, figures(2, clockMs, options.execOf(second))] };
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
