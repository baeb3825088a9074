import type { LeaderboardRun } from '../../types.js';
import { classifyFailure, type RunFailure } from './classify-failure.js';
import { FAILURE_ANATOMY_VERSION, FAILURE_CLASS_INFO, FAILURE_CLASSES, type FailureClass, type FailureSide } from './failure-classes.js';
import type { FailureEvidence } from './failure-evidence.js';

/** One agent's runs that were not solved, by class and by side. */
export interface FailureTally {
  /** Runs not solved (failed and void). */
  readonly notSolved: number;
  /** Per class; classes that did not occur are absent. */
  readonly byClass: Readonly<Partial<Record<FailureClass, number>>>;
  /** Per side (agent, harness, model, instrument); sides that did not occur are absent. */
  readonly bySide: Readonly<Partial<Record<FailureSide, number>>>;
}

/** The failure anatomy of a view: its version and every run's class. */
export interface FailureAnatomy {
  readonly version: number;
  /** Run id → why it was not solved; solved runs are absent. */
  readonly runs: Readonly<Record<string, RunFailure>>;
}

/** Every run's failure class (solved runs left out), with the evidence the api read for it. Pure. */
export function classifyRuns(runs: readonly LeaderboardRun[], evidence?: ReadonlyMap<string, FailureEvidence>): FailureAnatomy {
  const out: Record<string, RunFailure> = {};
  for (const run of runs) {
    const failure = classifyFailure(run, evidence?.get(run.id));
    if (failure) out[run.id] = failure;
  }
  return { version: FAILURE_ANATOMY_VERSION, runs: out };
}

/** Counts of the classes of some runs' failures (classes in their fixed order). Pure. */
export function tallyFailures(failures: readonly RunFailure[]): FailureTally {
  const byClass: Partial<Record<FailureClass, number>> = {};
  const bySide: Partial<Record<FailureSide, number>> = {};
  // counted in one pass, then written in the classes' fixed order (the order of the keys is part of the JSON)
  const counts = new Map<FailureClass, number>();
  for (const f of failures) counts.set(f.class, (counts.get(f.class) ?? 0) + 1);
  for (const cls of FAILURE_CLASSES) {
    const n = counts.get(cls) ?? 0;
    if (n === 0) continue;
    byClass[cls] = n;
    const side = FAILURE_CLASS_INFO[cls].side;
    bySide[side] = (bySide[side] ?? 0) + n;
  }
  return { notSolved: failures.length, byClass, bySide };
}

/** One class in a comparison of two agents' failures. */
export interface FailureDifference {
  readonly class: FailureClass;
  readonly a: number;
  readonly b: number;
}

/** The classes either agent has, in their fixed order, with both counts: where two agents' failures differ. Pure. */
export function compareFailures(a: FailureTally, b: FailureTally): FailureDifference[] {
  return FAILURE_CLASSES.filter((cls) => (a.byClass[cls] ?? 0) + (b.byClass[cls] ?? 0) > 0).map((cls) => ({ class: cls, a: a.byClass[cls] ?? 0, b: b.byClass[cls] ?? 0 }));
}

/** `no change 2, regressions 1, harness error 1` (labels, fixed order), or `none`. */
export function describeTally(tally: FailureTally): string {
  const parts = FAILURE_CLASSES.filter((cls) => tally.byClass[cls]).map((cls) => `${FAILURE_CLASS_INFO[cls].label} ${tally.byClass[cls]}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}
