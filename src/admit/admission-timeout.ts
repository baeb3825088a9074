import { describeTestTimeout, type TestAttempt } from '../grade/index.js';

/** What an admission test run that hit its wall clock comes to (decision 011). */
export type AdmissionTimeout =
  /** The task is rejected for it, by name: the run timed out, re-run alone or not starved. */
  | { readonly kind: 'timeout'; readonly reason: string }
  /** The machine held the re-run back from a CPU too: neither a rejection nor an admission. */
  | { readonly kind: 'machine-starved'; readonly message: string };

/**
 * What the attempts of one admission test run (`attempts`, the last one counts; see
 * `withStarvedRerun`) come to, or null when the last one finished within its clock. A run cut at
 * its clock is named a timeout, with the limit, never compared with another run as tests that
 * went missing ("flaky: … pass, then missing"). A run the machine starved was already re-run
 * alone with a longer clock; when that re-run timed out starved as well, the machine, not the
 * task, decided it, and validate must not record a verdict. The reason holds no measured
 * figure (the lock keeps it). Pure.
 */
export function admissionTimeout(attempts: readonly TestAttempt[], stage: string): AdmissionTimeout | null {
  const last = attempts.at(-1);
  if (!last?.timedOut) return null;
  if (attempts.length > 1 && last.cpu?.starved) {
    return {
      kind: 'machine-starved',
      message: `${describeTestTimeout(attempts)} on the ${stage} run, and the machine held the re-run back from a CPU too (${heldShare(last)}): validate again when the machine is less busy`,
    };
  }
  return { kind: 'timeout', reason: `${describeTestTimeout(attempts, { stable: true })} on the ${stage} run (controls.testWallClockSec; see its log)` };
}

function heldShare(attempt: TestAttempt): string {
  const cpu = attempt.cpu;
  return cpu && cpu.wallMs > 0 ? `held back ${Math.round((100 * cpu.heldMs) / cpu.wallMs)} % of its ${Math.round(cpu.wallMs / 1000)} s` : 'starved';
}
