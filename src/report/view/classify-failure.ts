import type { FailReason, LeaderboardRun, VoidReason } from '../../types.js';
import { FAIL_REASON_CLASS, FAILURE_CLASS_INFO, VOID_REASON_CLASS, type FailureClass, type FailureSide } from './failure-classes.js';
import { isRefusal, type FailureEvidence, type SessionClues, type TestTally } from './failure-evidence.js';

/** Why one run was not solved (failure anatomy, version FAILURE_ANATOMY_VERSION). */
export interface RunFailure {
  readonly class: FailureClass;
  /** Whose failure: the agent's work, the harness, the model (or its API), or the instrument (void). */
  readonly side: FailureSide;
  /** Finer than the class, e.g. `memory`, `api-server-error`, `refused`, `protected-path-changed`. */
  readonly cause: string;
  /** One line for people, e.g. `1 of 2 fail-to-pass tests pass`. */
  readonly detail: string;
  /** Fail-to-pass tests (or generated checks) passed / expected, when the run was graded and they were read. */
  readonly expectedPassing: { readonly passed: number; readonly total: number } | null;
  /** Pass-to-pass tests the change broke (at most 10 named), when read. */
  readonly broken: readonly string[];
  /** `evidence`: decided with the stored tests/sessions/change; `run-record`: from the run's outcome and points alone. */
  readonly basis: 'evidence' | 'run-record';
}

/**
 * The failure class of a run that was not solved; null for a solved run. Deterministic, from
 * stored evidence only (no model call): the outcome's reason first, then — for graded failures —
 * the change and the tests (no change; nothing ran: did not build; a pass-to-pass broken:
 * regressions; else partly passing, k of n), and — for an empty change or a session the
 * instrument voided — what the session left: a final answer that declines the task (model), a
 * request the API refused (harness), an empty answer (model), every tool call refused by the
 * harness for its name or input (model: it called tools that do not exist). A reason this
 * version does not know is classed by default: a failure as graded, a void as the instrument.
 * Pure.
 */
export function classifyFailure(run: LeaderboardRun, evidence?: FailureEvidence | null): RunFailure | null {
  const o = run.outcome;
  if (o.kind === 'solved') return null;
  const basis = evidence ? 'evidence' : 'run-record';
  if (o.kind === 'void') return classifyVoid(o.reason, evidence ?? null, basis);
  return classifyFailed(run, o.reason, o.detail ?? '', evidence ?? null, basis);
}

function made(cls: FailureClass, cause: string, detail: string, basis: RunFailure['basis'], extra: Partial<Pick<RunFailure, 'expectedPassing' | 'broken'>> = {}): RunFailure {
  return { class: cls, side: FAILURE_CLASS_INFO[cls].side, cause, detail, expectedPassing: extra.expectedPassing ?? null, broken: extra.broken ?? [], basis };
}

function classifyVoid(reason: VoidReason, ev: FailureEvidence | null, basis: RunFailure['basis']): RunFailure {
  const rule = (VOID_REASON_CLASS as Partial<Record<string, (typeof VOID_REASON_CLASS)[VoidReason]>>)[reason] ?? { class: 'instrument' as const, cause: reason };
  if (rule.session && ev?.sessions) {
    const found = sessionCause(ev.sessions, reason === 'no-final-answer');
    if (found) return made(found.class, found.cause, found.detail, basis);
  }
  return made(rule.class, rule.cause, `void: ${reason}`, basis);
}

function classifyFailed(run: LeaderboardRun, reason: FailReason, detail: string, ev: FailureEvidence | null, basis: RunFailure['basis']): RunFailure {
  const rule = (FAIL_REASON_CLASS as Partial<Record<string, (typeof FAIL_REASON_CLASS)[FailReason]>>)[reason] ?? 'graded';
  if (reason === 'session-timeout' && ev?.sessions) {
    // a harness that waits out the wall clock after the API refused its request is the harness's failure, not the time limit's
    const rejected = ev.sessions.map(refusedAtTheEnd).find((x) => x !== null);
    if (rejected) return made(rejected.class, rejected.cause, `${rejected.detail}; it then waited until the wall clock`, basis);
  }
  if (rule !== 'graded') return made(rule.class, rule.cause, `failed: ${reason}`, basis);
  if (reason === 'grading-error') {
    return /capturing the change failed/.test(detail)
      ? made('protected-or-refused', 'capture-failed', 'the change could not be captured as a patch', basis)
      : made('did-not-build', 'grading-error', 'grading broke on this change (it works on the unchanged repo)', basis);
  }
  if (/\bthe test command timed out\b/.test(detail)) return made('test-limit', 'time', 'with the change, the tests ran out of time', basis);
  const emptyChange = ev?.changeBytes !== null && ev?.changeBytes !== undefined ? ev.changeBytes === 0 : run.linesAdded + run.linesRemoved === 0;
  if (emptyChange) {
    const found = ev?.sessions ? sessionCause(ev.sessions, true) : null;
    return found ? made(found.class, found.cause, found.detail, basis) : made('no-change', 'empty-change', 'the agent left the code as it was', basis);
  }
  return ev?.tests ? fromTests(ev.tests, detail, basis) : fromPoints(run, basis);
}

/** A graded failure read from the tests: nothing ran, a pass-to-pass broken, or k of n. */
function fromTests(t: TestTally, detail: string, basis: RunFailure['basis']): RunFailure {
  const expected = t.generated.total > 0 ? t.generated : t.failToPass;
  const expectedPassing = { passed: expected.passed, total: expected.total };
  const all = t.failToPass.total + t.passToPass.total + t.generated.total;
  const passed = t.failToPass.passed + t.passToPass.passed + t.generated.passed;
  const errored = t.failToPass.errored + t.passToPass.errored + t.generated.errored;
  const unit = t.generated.total > 0 ? 'generated checks' : 'fail-to-pass tests';
  // tests that never ran (errored, missing) everywhere: the code under test did not load; a generated check says so itself (load-error)
  if (all > 0 && passed === 0 && (t.generated.total > 0 ? /\(load-error\b/.test(detail) : errored === all)) {
    return made('did-not-build', t.generated.total > 0 ? 'load-error' : 'no-test-ran', `none of the ${all} expected tests or checks ran to a result`, basis, { expectedPassing });
  }
  if (t.passToPass.passed < t.passToPass.total) {
    const broken = t.passToPass.total - t.passToPass.passed;
    const named = t.passToPass.broken.slice(0, 3).join(', ');
    return made('regressions', 'pass-to-pass-broken',
      `${broken} of ${t.passToPass.total} tests that passed before fail (${named}${broken > 3 ? ', …' : ''}); ${expected.passed} of ${expected.total} ${unit} pass`, basis,
      { expectedPassing, broken: t.passToPass.broken });
  }
  return made('partly-passing', t.generated.total > 0 ? 'checks' : 'fail-to-pass', `${expected.passed} of ${expected.total} ${unit} pass`, basis, { expectedPassing });
}

/** Without the stored tests: the run's points (expected tests passed) say how far it got. */
function fromPoints(run: LeaderboardRun, basis: RunFailure['basis']): RunFailure {
  return made('partly-passing', 'points', `${run.points} of ${run.maxPoints} expected tests or checks pass`, basis, { expectedPassing: { passed: run.points, total: run.maxPoints } });
}

/**
 * What the sessions say about a run that changed nothing (or that the instrument voided): the
 * model declined the task, the API refused the harness's request, the model answered with
 * nothing, or every tool call was refused by the harness. Null when they say none of it.
 */
function sessionCause(sessions: readonly SessionClues[], emptyAnswerCounts: boolean): { class: FailureClass; cause: string; detail: string } | null {
  for (const s of sessions) {
    const rejected = refusedAtTheEnd(s);
    if (rejected) return rejected;
  }
  for (const s of sessions) {
    if (isRefusal(s.finalMessage)) return { class: 'model-error', cause: 'refused', detail: `the model declined the task: "${oneLine(s.finalMessage!)}"` };
  }
  for (const s of sessions) {
    if (s.tools && s.tools.calls > 0 && s.tools.rejected === s.tools.calls) {
      return { class: 'model-error', cause: 'tool-calls-rejected', detail: `the harness refused every one of the model's ${s.tools.calls} tool call(s): ${s.tools.firstRejection ?? ''}` };
    }
  }
  if (emptyAnswerCounts) {
    for (const s of sessions) {
      const last = s.requests.filter((r) => r.failure === null).at(-1);
      const noTools = s.tools === null || s.tools.calls === 0;
      if (last && last.output === 0 && noTools && (s.finalMessage ?? '').trim() === '') {
        return { class: 'model-error', cause: 'empty-answer', detail: 'the model answered with nothing (0 output tokens) and no tool call' };
      }
    }
  }
  return null;
}

/**
 * The session ended on a request the model API refused as malformed (HTTP 4xx other than auth and
 * rate limits: the proxy's `client-error`), whatever the harness then did (gave up, crashed, or
 * waited for the wall clock): the harness built a request the API does not take.
 */
function refusedAtTheEnd(s: SessionClues): { class: FailureClass; cause: string; detail: string } | null {
  const last = s.requests.at(-1);
  if (last?.failure !== 'client-error') return null;
  const refused = s.requests.filter((r) => r.failure === 'client-error').length;
  const which = s.requests.length === 1 ? 'its only model request' : `${refused} of its ${s.requests.length} model requests, the last one included`;
  return { class: 'harness-error', cause: 'request-rejected', detail: `the model API refused ${which} (HTTP ${last.status ?? '4xx'}): the harness sent what the API does not take` };
}

function oneLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}

/**
 * Whether a run's class may depend on its sessions (so the api reads them, and the transcript):
 * a failure whose change may be empty, a session out of time (a harness waiting after a refused
 * request), or a void the harness's session decides. Pure.
 */
export function needsSessionClues(run: LeaderboardRun): boolean {
  const o = run.outcome;
  if (o.kind === 'failed') return o.reason === 'session-timeout' || (run.linesAdded + run.linesRemoved === 0 && ((FAIL_REASON_CLASS as Partial<Record<string, unknown>>)[o.reason] ?? 'graded') === 'graded');
  return o.kind === 'void' && (VOID_REASON_CLASS as Partial<Record<string, { session?: true }>>)[o.reason]?.session === true;
}
