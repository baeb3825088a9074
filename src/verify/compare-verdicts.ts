import type { FailReason, Outcome, RunRecord } from '../types.js';

/** Points of one order: expected checks that passed / expected checks. */
export interface OrderPoints {
  readonly order: number;
  readonly points: number;
  readonly maxPoints: number;
}

/** What re-grading a run's stored changes gave. */
export interface Regrade {
  readonly outcome: Outcome;
  /** One entry per order that had a stored change, in order. */
  readonly orders: readonly OrderPoints[];
  /**
   * Why this re-grade cannot stand against the stored verdict when they disagree: a test run
   * that timed out (after its re-run) or that the machine starved (decision 011). Empty: it ran
   * to its end unhindered.
   */
  readonly doubts?: readonly string[];
}

/** Where a stored verdict and its re-grade disagree. */
export type VerdictMismatch =
  | { readonly kind: 'outcome'; readonly stored: Outcome; readonly regraded: Outcome }
  /** `order` null: the run's total. A side is null when it has no points for that order. */
  | { readonly kind: 'points'; readonly order: number | null; readonly stored: OrderPoints | null; readonly regraded: OrderPoints | null };

/**
 * Failures that come from the agent's session (its clock, its limits, its workspace quota) or
 * from a change that was refused before it became a patch (too large, unsupported): re-grading
 * the stored patches alone cannot reproduce them.
 */
export const SESSION_FAIL_REASONS: ReadonlySet<FailReason> = new Set(['session-timeout', 'memory-limit', 'pids-limit', 'disk-limit', 'change-too-large', 'unsupported-file']);

/** `outcome-and-points` for most runs; `points` when the stored failure came from the agent's session. */
export function comparisonBasis(stored: Outcome): 'outcome-and-points' | 'points' {
  return stored.kind === 'failed' && SESSION_FAIL_REASONS.has(stored.reason) ? 'points' : 'outcome-and-points';
}

/**
 * Compares a stored run's verdict with a re-grade of its stored changes. Pure. The outcome is
 * compared by kind and fail or void reason (details hold timings and runner output, so they are
 * not compared), unless the stored failure came from the agent's session; points always, per
 * order and in total.
 */
export function compareVerdicts(stored: RunRecord, regraded: Regrade): VerdictMismatch[] {
  const out: VerdictMismatch[] = [];
  if (comparisonBasis(stored.outcome) === 'outcome-and-points' && !sameVerdict(stored.outcome, regraded.outcome)) {
    out.push({ kind: 'outcome', stored: stored.outcome, regraded: regraded.outcome });
  }
  const storedBy = new Map(stored.orders.map((o) => [o.order, o]));
  const regradedBy = new Map(regraded.orders.map((o) => [o.order, o]));
  const orders = [...new Set([...storedBy.keys(), ...regradedBy.keys()])].sort((a, b) => a - b);
  for (const order of orders) {
    const s = storedBy.get(order) ?? null;
    const r = regradedBy.get(order) ?? null;
    if (!samePoints(s, r)) out.push({ kind: 'points', order, stored: s, regraded: r });
  }
  const total = (orders: readonly OrderPoints[]): OrderPoints => ({
    order: 0,
    points: orders.reduce((a, o) => a + o.points, 0),
    maxPoints: orders.reduce((a, o) => a + o.maxPoints, 0),
  });
  const storedTotal = { order: 0, points: stored.points, maxPoints: stored.maxPoints };
  if (!samePoints(storedTotal, total(regraded.orders))) {
    out.push({ kind: 'points', order: null, stored: storedTotal, regraded: total(regraded.orders) });
  }
  return out;
}

function sameVerdict(a: Outcome, b: Outcome): boolean {
  if (a.kind === 'solved' || b.kind === 'solved') return a.kind === b.kind;
  return a.kind === b.kind && reasonOf(a) === reasonOf(b);
}

/** A test timeout stored before bakeoff named it (`tests-failed`, "the test command timed out") is a `test-timeout`. */
function reasonOf(o: Exclude<Outcome, { kind: 'solved' }>): string {
  return o.kind === 'failed' && o.reason === 'tests-failed' && /^order \d+: the test command timed out$/.test(o.detail ?? '') ? 'test-timeout' : o.reason;
}

function samePoints(a: OrderPoints | null, b: OrderPoints | null): boolean {
  if (a === null || b === null) return a === b;
  return a.points === b.points && a.maxPoints === b.maxPoints;
}
