import type { FailReason, Outcome, VoidReason } from '../types.js';
import type { StoredRefusal } from '../store/index.js';
import { escapeControl } from '../util/index.js';
import { worstOutcome } from './worst-outcome.js';

/** The controls the outcome rules read. */
export interface OutcomeRules {
  /** A session out of time is void (the suite says so), else the agent's failure. */
  readonly timeoutIsVoid: boolean;
  readonly sessionWallClockSec: number;
}

/** The outcome rules of a suite's controls. */
export function outcomeRules(controls: OutcomeRules): OutcomeRules {
  return { timeoutIsVoid: controls.timeoutIsVoid, sessionWallClockSec: controls.sessionWallClockSec };
}

/** What the agent's session of an order came to, and the workspace it left. */
export interface SessionEvidence {
  /** The workspace quota was used up. */
  readonly workspaceFull: boolean;
  /** The session's own report that its change cannot be made (the agent's failure). */
  readonly failure: { readonly reason: FailReason; readonly detail: string } | null;
  /** The instrument broke. */
  readonly error: string | null;
  readonly voidReason: VoidReason | null;
  readonly limitHit: 'memory' | 'pids' | null;
  readonly timedOut: boolean;
  /** The session's time limit was what was left of the agent time budget, less than the wall clock. */
  readonly cutByBudget: boolean;
  /**
   * The session ran out of time while the machine held it back from a CPU for a quarter of its
   * wall time or more (decision 011): void `machine-starved`, never the agent's timeout. A
   * session that sleeps or waits on its model is never starved.
   */
  readonly starved?: boolean;
  /** What the machine gave the session, in a sentence (for the void's detail). */
  readonly machine?: string;
}

/**
 * A session that found nothing: what re-grading, which does not run sessions again, puts in the
 * session stage (verify compares the session's own findings on points, `compare-verdicts.ts`).
 */
export const NO_SESSION_FINDINGS: SessionEvidence = {
  workspaceFull: false, failure: null, error: null, voidReason: null, limitHit: null, timedOut: false, cutByBudget: false, starved: false,
};

/** How the change of an order graded. */
export type GradeEvidence =
  | { readonly applied: false; readonly error: string; readonly maxPoints: number }
  | { readonly applied: true; readonly points: number; readonly maxPoints: number; readonly failure: { readonly reason: FailReason; readonly detail: string } | null };

/**
 * What happened in one order, stage by stage; a stage not (yet) reached is absent. Stages:
 * the budget, the session, the change's inspection, its capture, the grading plan, grading.
 */
export interface OrderEvidence {
  /** 1-based order index. */
  readonly order: number;
  /** The agent time budget was used up before the session started. */
  readonly budgetUsedUp?: boolean;
  readonly session?: SessionEvidence;
  /** Why the change was refused before grading (too large, an unsupported file), or null. */
  readonly changeRefused?: { readonly reason: FailReason; readonly detail: string; readonly paths?: readonly string[] } | null;
  /** Why capturing the change failed, or null. */
  readonly captureFailure?: string | null;
  /** Why the order cannot be graded (the oracle changed), or null. */
  readonly gradingVoid?: Outcome | null;
  /** Why grading the change failed (the grader's own trouble), or null. */
  readonly gradeFailure?: string | null;
  readonly grade?: GradeEvidence;
}

/** What one order's evidence decides. */
export interface OrderVerdict {
  /** What the order's stages found, in stage order (folded with `worstOutcome`). */
  readonly outcomes: readonly Outcome[];
  /** The run goes no further: no later stage of this order, no later order. */
  readonly stop: boolean;
  /** The order's points, when its change was graded (or failed to apply). */
  readonly score: { readonly order: number; readonly points: number; readonly maxPoints: number } | null;
  /** What to store as the order's refusal (`writeRefusal`, store/run-folder.ts) when the change was refused, else null. */
  readonly refusal: StoredRefusal | null;
}

/** What a run's orders decide. */
export interface RunDecision {
  readonly outcome: Outcome;
  readonly orders: readonly { readonly order: number; readonly points: number; readonly maxPoints: number }[];
  readonly points: number;
  readonly maxPoints: number;
}

/**
 * The rules of one order, in precedence: the budget used up (a timeout), a full workspace (the
 * agent's, even when its CLI then broke), the session's failure, the instrument broken (void),
 * a memory or process limit, a timeout while the machine starved the session (void, the run
 * ends), or a timeout (recorded, grading goes on), the change refused, its
 * capture failed, the order not gradable (void), grading failed, the patch did not apply
 * (scored 0, the next order goes on), the grade's failure. Pure.
 */
export function judgeOrder(rules: OutcomeRules, ev: OrderEvidence): OrderVerdict {
  const outcomes: Outcome[] = [];
  const at = `order ${ev.order}`;
  const end = (outcome: Outcome, refusal: StoredRefusal | null = null): OrderVerdict => ({ outcomes: [...outcomes, outcome], stop: true, score: null, refusal });
  const open = (): OrderVerdict => ({ outcomes, stop: false, score: null, refusal: null });
  const timeout = (detail: string): Outcome =>
    rules.timeoutIsVoid ? { kind: 'void', reason: 'timeout', detail } : { kind: 'failed', reason: 'session-timeout', detail };

  if (ev.budgetUsedUp) return end(timeout(`${at}: the agent time budget was used up before it started`));
  const s = ev.session;
  if (!s) return open();
  if (s.workspaceFull) return end({ kind: 'failed', reason: 'disk-limit', detail: `${at}: the workspace quota is used up` });
  if (s.failure) return end(failed(s.failure.reason, `${at}: ${s.failure.detail}`), refusalOf(s.failure.reason, s.failure.detail));
  if (s.error !== null) return end({ kind: 'void', reason: s.voidReason ?? 'agent-error', detail: `${at}: ${s.error}` });
  if (s.limitHit === 'memory') outcomes.push({ kind: 'failed', reason: 'memory-limit', detail: `${at}: killed at the memory limit` });
  else if (s.limitHit === 'pids') outcomes.push({ kind: 'failed', reason: 'pids-limit', detail: `${at}: ran into the process limit` });
  else if (s.timedOut && s.starved === true) {
    const limit = s.cutByBudget ? 'the agent time budget ran out' : `no answer within ${rules.sessionWallClockSec} s`;
    return end({ kind: 'void', reason: 'machine-starved', detail: `${at}: ${limit} while the machine held the session back from a CPU${s.machine ? ` (${s.machine})` : ''}; bakeoff redoes the run on resume` });
  } else if (s.timedOut) outcomes.push(timeout(`${at}: ${s.cutByBudget ? 'the agent time budget ran out' : `no answer within ${rules.sessionWallClockSec} s`}`));

  if (ev.changeRefused === undefined) return open();
  if (ev.changeRefused) return end(failed(ev.changeRefused.reason, `${at}: ${ev.changeRefused.detail}`), refusalOf(ev.changeRefused.reason, ev.changeRefused.detail, ev.changeRefused.paths));
  if (ev.captureFailure === undefined) return open();
  if (ev.captureFailure !== null) return end(failed('grading-error', `${at}: capturing the change failed: ${ev.captureFailure}`), refusalOf('grading-error', ev.captureFailure));
  if (ev.gradingVoid === undefined) return open();
  if (ev.gradingVoid !== null) return end(ev.gradingVoid);
  if (ev.gradeFailure === undefined) return open();
  if (ev.gradeFailure !== null) return end(failed('grading-error', `${at}: grading this change failed: ${ev.gradeFailure}`));
  const g = ev.grade;
  if (!g) return open();
  if (!g.applied) {
    outcomes.push(failed('patch-did-not-apply', g.error.slice(0, 500)));
    return { outcomes, stop: false, score: { order: ev.order, points: 0, maxPoints: g.maxPoints }, refusal: null };
  }
  if (g.failure) outcomes.push(failed(g.failure.reason, `${at}: ${g.failure.detail}`));
  return { outcomes, stop: false, score: { order: ev.order, points: g.points, maxPoints: g.maxPoints }, refusal: null };
}

/**
 * A run's outcome, points and points per order from its orders' evidence: the first void, else
 * the first failure, else solved; nothing after the order that stopped the run counts. Pure.
 */
export function decideOutcome(rules: OutcomeRules, orders: readonly OrderEvidence[]): RunDecision {
  let outcome: Outcome = { kind: 'solved' };
  const scores: { order: number; points: number; maxPoints: number }[] = [];
  for (const ev of orders) {
    const verdict = judgeOrder(rules, ev);
    for (const o of verdict.outcomes) outcome = worstOutcome(outcome, o);
    if (verdict.score) scores.push(verdict.score);
    if (verdict.stop) break;
  }
  return { outcome, orders: scores, points: scores.reduce((a, o) => a + o.points, 0), maxPoints: scores.reduce((a, o) => a + o.maxPoints, 0) };
}

/** A failure of the agent's, its detail made safe to print (it may carry file names the agent chose). */
function failed(reason: FailReason, detail: string): Outcome {
  return { kind: 'failed', reason, detail: escapeControl(detail, { keepNewlines: true }).slice(0, 2000) };
}

function refusalOf(reason: FailReason, detail: string, paths: readonly string[] = []): StoredRefusal {
  return { reason, paths, message: escapeControl(detail, { keepNewlines: true }) };
}

/**
 * The stages a stored refusal (what {@link judgeOrder} gave as `refusal`, read back by the
 * store's `readRefusal`) stands for, so that judging them again gives the bake's outcome, text
 * and all. Its reason names the stage that refused the change: the session's own failure
 * (patch-did-not-apply, the only one a session reports), the inspection (change-too-large,
 * unsupported-file) or the capture (grading-error). Null when the reason is no refusal's. Pure.
 */
export function refusalEvidence(refusal: Pick<StoredRefusal, 'reason' | 'message'> & { readonly paths?: readonly string[] }): Pick<OrderEvidence, 'session' | 'changeRefused' | 'captureFailure'> | null {
  const { reason, message: detail } = refusal;
  const paths = refusal.paths ?? [];
  switch (reason) {
    case 'patch-did-not-apply':
      return { session: { ...NO_SESSION_FINDINGS, failure: { reason, detail } } };
    case 'change-too-large':
    case 'unsupported-file':
      return { session: NO_SESSION_FINDINGS, changeRefused: paths.length > 0 ? { reason, detail, paths } : { reason, detail } };
    case 'grading-error':
      return { session: NO_SESSION_FINDINGS, changeRefused: null, captureFailure: detail };
    default:
      return null;
  }
}
