import type { CheckResult } from '../grade/index.js';

/** One scoring of a checks-graded gold at one order, seed and level. */
export interface GoldAttempt {
  readonly order: number;
  readonly seed: number;
  readonly level: number;
  /** 1, 2, …: attempts at the same order, seed and level. */
  readonly attempt: number;
  readonly results: readonly CheckResult[];
}

/** Failed checks named in a reason. */
const MAX_NAMED = 3;

/**
 * Why the gold's attempts at one order, seed and level do not admit the task, or undefined
 * when every attempt scored full. The reason holds no measured times, so it reads the same
 * on every validate that sees the same failure (the lock stores it): a gold that scores full
 * in some attempts only is load-sensitive; one that fails the same checks every time scores
 * below full. Pure.
 */
export function goldFailureReason(attempts: readonly GoldAttempt[], cpuLimitMs: number): string | undefined {
  const failedSets = attempts.map((a) => a.results.filter((r) => !r.passed));
  if (failedSets.every((failed) => failed.length === 0)) return undefined;
  const { seed, level } = attempts[0]!;
  const at = `seed ${seed}, level ${level}`;
  const keys = failedSets.map((failed) => failed.map((r) => `${r.id}:${r.failure}`).join(','));
  if (new Set(keys).size > 1) {
    const named = [...new Map(failedSets.flat().map((r) => [r.id, r])).values()];
    return (
      `the gold is load-sensitive at ${at}: it does not score full in every one of ${attempts.length} attempts ` +
      `(failed in some: ${describe(named, cpuLimitMs)}); make the checks at this level cheaper or the gold faster, ` +
      `or run validate on a machine that is not busy to see whether the machine is the cause`
    );
  }
  const failed = failedSets[0]!;
  const max = attempts[0]!.results.length;
  return `the gold scores ${max - failed.length}/${max} at ${at} in all ${attempts.length} attempts: ${describe(failed, cpuLimitMs)}`;
}

/** Lines with the numbers behind a gold's verdict: points, and the CPU time of failed and heaviest checks. Pure. */
export function goldAttemptNotes(attempts: readonly GoldAttempt[], cpuLimitMs: number): string[] {
  return attempts.map((a) => {
    const passed = a.results.filter((r) => r.passed).length;
    const failed = a.results.filter((r) => !r.passed).map((r) => `${r.id} ${r.failure}${spent(r, cpuLimitMs)}`);
    const heaviest = heaviestOf(a.results);
    const tail = failed.length ? `; failed: ${failed.join('; ')}` : heaviest ? `; heaviest check ${heaviest.id}${spent(heaviest, cpuLimitMs)}` : '';
    return `order ${a.order}, seed ${a.seed}, level ${a.level}, attempt ${a.attempt}: ${passed}/${a.results.length}${tail}`;
  });
}

/** The line naming the gold's heaviest check over all attempts, or undefined when none ran in the VM. Pure. */
export function heaviestGoldNote(attempts: readonly GoldAttempt[], cpuLimitMs: number): string | undefined {
  let top: { attempt: GoldAttempt; result: CheckResult } | undefined;
  for (const attempt of attempts) {
    const result = heaviestOf(attempt.results);
    if (result && (!top || result.cpuMs! > top.result.cpuMs!)) top = { attempt, result };
  }
  if (!top) return undefined;
  const { attempt, result } = top;
  return `the gold's heaviest check: order ${attempt.order}, seed ${attempt.seed}, level ${attempt.level}, ${result.id}${spent(result, cpuLimitMs)}`;
}

function heaviestOf(results: readonly CheckResult[]): CheckResult | undefined {
  return results.filter((r) => r.cpuMs !== undefined).reduce<CheckResult | undefined>((top, r) => (!top || r.cpuMs! > top.cpuMs! ? r : top), undefined);
}

function spent(result: CheckResult, cpuLimitMs: number): string {
  if (result.cpuMs === undefined) return '';
  const share = Math.round((100 * result.cpuMs) / cpuLimitMs);
  return ` (${Math.round(result.cpuMs)} ms of CPU time of its ${cpuLimitMs} ms limit, ${share}%; ${Math.round(result.durationMs)} ms wall)`;
}

/** Failed checks for a reason: the failure and, unless it is a measured time, the message start. */
function describe(failed: readonly CheckResult[], cpuLimitMs: number): string {
  const named = failed.slice(0, MAX_NAMED).map((r) => {
    if (r.failure === 'timeout') return `${r.id} (timeout: over the ${cpuLimitMs} ms CPU limit)`;
    if (r.failure === 'wall-backstop') return `${r.id} (wall-backstop: stopped by the wall-clock backstop, not the CPU limit)`;
    return `${r.id} (${r.failure}${r.message ? `: ${r.message.slice(0, 60)}` : ''})`;
  });
  return failed.length > MAX_NAMED ? `${named.join(', ')} and ${failed.length - MAX_NAMED} more` : named.join(', ');
}
