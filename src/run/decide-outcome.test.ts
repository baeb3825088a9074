import { describe, expect, it } from 'vitest';
import { decideOutcome, judgeOrder, refusalEvidence, type OrderEvidence, type SessionEvidence } from './decide-outcome.js';
import type { StoredRefusal } from '../store/index.js';

const rules = { timeoutIsVoid: false, sessionWallClockSec: 600 };
const session = (over: Partial<SessionEvidence> = {}): SessionEvidence => ({
  workspaceFull: false, failure: null, error: null, voidReason: null, limitHit: null, timedOut: false, cutByBudget: false, ...over,
});
/** An order that got through every stage, its change graded. */
const graded = (order: number, grade: OrderEvidence['grade'] = { applied: true, points: 3, maxPoints: 3, failure: null }, over: Partial<OrderEvidence> = {}): OrderEvidence => ({
  order, budgetUsedUp: false, session: session(), changeRefused: null, captureFailure: null, gradingVoid: null, gradeFailure: null, grade, ...over,
});
const testsFailed = { applied: true as const, points: 1, maxPoints: 3, failure: { reason: 'tests-failed' as const, detail: '2 expected tests did not pass' } };

describe('decideOutcome', () => {
  it.each<[string, Partial<typeof rules>, OrderEvidence[], unknown, number, number]>([
    ['every order graded and passing', {}, [graded(1), graded(2)], { kind: 'solved' }, 6, 6],
    ['budget used up before the first session (failure)', {}, [{ order: 1, budgetUsedUp: true }], { kind: 'failed', reason: 'session-timeout', detail: 'order 1: the agent time budget was used up before it started' }, 0, 0],
    ['budget used up, timeouts void', { timeoutIsVoid: true }, [graded(1), { order: 2, budgetUsedUp: true }], { kind: 'void', reason: 'timeout', detail: 'order 2: the agent time budget was used up before it started' }, 3, 3],
    ['session timed out at the wall clock, still graded', {}, [graded(1, undefined, { session: session({ timedOut: true }) })], { kind: 'failed', reason: 'session-timeout', detail: 'order 1: no answer within 600 s' }, 3, 3],
    ['session timed out while the machine starved it: void, the run ends ungraded', {}, [graded(1, undefined, { session: session({ timedOut: true, starved: true, machine: '600 s wall, 3 s CPU, held back 560 s (93 %) waiting for a CPU' }) }), graded(2)], { kind: 'void', reason: 'machine-starved', detail: 'order 1: no answer within 600 s while the machine held the session back from a CPU (600 s wall, 3 s CPU, held back 560 s (93 %) waiting for a CPU); bakeoff redoes the run on resume' }, 0, 0],
    ['a starved session that ended in time is the agent\'s', {}, [graded(1, testsFailed, { session: session({ starved: true }) })], { kind: 'failed', reason: 'tests-failed', detail: 'order 1: 2 expected tests did not pass' }, 1, 3],
    ['session cut by the budget', {}, [graded(1, undefined, { session: session({ timedOut: true, cutByBudget: true }) })], { kind: 'failed', reason: 'session-timeout', detail: 'order 1: the agent time budget ran out' }, 3, 3],
    ['memory limit wins over a timeout', {}, [graded(1, undefined, { session: session({ limitHit: 'memory', timedOut: true }) })], { kind: 'failed', reason: 'memory-limit', detail: 'order 1: killed at the memory limit' }, 3, 3],
    ['process limit', {}, [graded(1, undefined, { session: session({ limitHit: 'pids' }) })], { kind: 'failed', reason: 'pids-limit', detail: 'order 1: ran into the process limit' }, 3, 3],
    ['a full workspace beats the agent error', {}, [{ order: 1, session: session({ workspaceFull: true, error: 'crashed' }) }], { kind: 'failed', reason: 'disk-limit', detail: 'order 1: the workspace quota is used up' }, 0, 0],
    ['agent error without a reason is agent-error', {}, [{ order: 1, session: session({ error: 'could not start' }) }], { kind: 'void', reason: 'agent-error', detail: 'order 1: could not start' }, 0, 0],
    ['agent error with its void reason', {}, [graded(1), { order: 2, session: session({ error: 'HTTP 429', voidReason: 'upstream-rate-limited' }) }], { kind: 'void', reason: 'upstream-rate-limited', detail: 'order 2: HTTP 429' }, 3, 3],
    ['session failure beats its error', {}, [{ order: 1, session: session({ failure: { reason: 'patch-did-not-apply', detail: 'bad\x1bpatch' }, error: 'x' }) }], { kind: 'failed', reason: 'patch-did-not-apply', detail: 'order 1: bad\\x1bpatch' }, 0, 0],
    ['change refused', {}, [{ order: 1, session: session(), changeRefused: { reason: 'change-too-large', detail: '12 MB' } }], { kind: 'failed', reason: 'change-too-large', detail: 'order 1: 12 MB' }, 0, 0],
    ['capture failed', {}, [{ order: 1, session: session(), changeRefused: null, captureFailure: 'git died' }], { kind: 'failed', reason: 'grading-error', detail: 'order 1: capturing the change failed: git died' }, 0, 0],
    ['oracle changed', {}, [{ order: 1, session: session(), changeRefused: null, captureFailure: null, gradingVoid: { kind: 'void', reason: 'oracle-changed', detail: 'order 1: checks differ' } }], { kind: 'void', reason: 'oracle-changed', detail: 'order 1: checks differ' }, 0, 0],
    ['grader failed', {}, [graded(1, undefined, { gradeFailure: 'bwrap gone', grade: undefined })], { kind: 'failed', reason: 'grading-error', detail: 'order 1: grading this change failed: bwrap gone' }, 0, 0],
    ['patch did not apply: 0 points, the next order goes on', {}, [graded(1, { applied: false, error: 'x'.repeat(600), maxPoints: 4 }), graded(2)], { kind: 'failed', reason: 'patch-did-not-apply', detail: 'x'.repeat(500) }, 3, 7],
    ['tests failed', {}, [graded(1, testsFailed)], { kind: 'failed', reason: 'tests-failed', detail: 'order 1: 2 expected tests did not pass' }, 1, 3],
    ['the first failure of several orders stays', {}, [graded(1, testsFailed), graded(2, undefined, { session: session({ limitHit: 'memory' }) })], { kind: 'failed', reason: 'tests-failed', detail: 'order 1: 2 expected tests did not pass' }, 4, 6],
    ['a later void beats an earlier failure', {}, [graded(1, testsFailed), { order: 2, session: session({ error: 'boom' }) }], { kind: 'void', reason: 'agent-error', detail: 'order 2: boom' }, 1, 3],
    ['nothing after the order that stopped counts', {}, [{ order: 1, session: session({ workspaceFull: true }) }, graded(2)], { kind: 'failed', reason: 'disk-limit', detail: 'order 1: the workspace quota is used up' }, 0, 0],
  ])('%s', (_name, over, orders, outcome, points, maxPoints) => {
    const decided = decideOutcome({ ...rules, ...over }, orders);
    expect(decided.outcome).toEqual(outcome);
    expect([decided.points, decided.maxPoints]).toEqual([points, maxPoints]);
    expect(decided.orders.reduce((a, o) => a + o.maxPoints, 0)).toBe(maxPoints);
  });
});

describe('judgeOrder', () => {
  it.each<[string, OrderEvidence, boolean, StoredRefusal | null]>([
    ['before any stage', { order: 1 }, false, null],
    ['budget used up', { order: 1, budgetUsedUp: true }, true, null],
    ['after a plain session, more to do', { order: 1, session: session() }, false, null],
    ['a timed-out session goes on to grading', { order: 1, session: session({ timedOut: true }) }, false, null],
    ['session failure: stops, refusal written', { order: 1, session: session({ failure: { reason: 'patch-did-not-apply', detail: 'no' } }) }, true, { reason: 'patch-did-not-apply', paths: [], message: 'no' }],
    ['full workspace: stops, no refusal even with a session failure', { order: 1, session: session({ workspaceFull: true, failure: { reason: 'patch-did-not-apply', detail: 'no' } }) }, true, null],
    ['agent error: stops, no refusal', { order: 1, session: session({ error: 'e' }) }, true, null],
    ['refused change: stops, refusal written', { order: 1, session: session(), changeRefused: { reason: 'unsupported-file', detail: 'a\nb', paths: ['a', 'b'] } }, true, { reason: 'unsupported-file', paths: ['a', 'b'], message: 'a\nb' }],
    ['capture failed: stops, refusal written', { order: 1, session: session(), changeRefused: null, captureFailure: 'why' }, true, { reason: 'grading-error', paths: [], message: 'why' }],
    ['grader failed: stops, no refusal', graded(1, undefined, { gradeFailure: 'g', grade: undefined }), true, null],
    ['patch did not apply: goes on', graded(1, { applied: false, error: 'e', maxPoints: 1 }), false, null],
    ['graded with a failure: goes on', graded(1, testsFailed), false, null],
  ])('%s', (_name, ev, stop, refusal) => {
    const verdict = judgeOrder(rules, ev);
    expect(verdict.stop).toBe(stop);
    expect(verdict.refusal).toEqual(refusal);
  });
});

describe('refusalEvidence', () => {
  it.each<[string, OrderEvidence]>([
    ['a session failure', { order: 2, session: session({ failure: { reason: 'patch-did-not-apply', detail: 'the patch does not apply: x\x1b' } }) }],
    ['a refused change', { order: 1, session: session(), changeRefused: { reason: 'unsupported-file', detail: 'a nested git repository:\nsub/.git' } }],
    ['a too large change', { order: 1, session: session(), changeRefused: { reason: 'change-too-large', detail: '12 MB', paths: ['big.bin'] } }],
    ['a failed capture', { order: 3, session: session(), changeRefused: null, captureFailure: 'git died' }],
  ])('gives back the stages of %s, judged to the same outcome, text and all', (_name, ev) => {
    const bake = judgeOrder(rules, ev);
    const stored = refusalEvidence(bake.refusal!);
    expect(stored).not.toBeNull();
    expect(judgeOrder(rules, { order: ev.order, ...stored })).toEqual(bake);
  });

  it('is null for a reason that is no refusal', () => {
    expect(refusalEvidence({ reason: 'tests-failed', message: '2 tests' })).toBeNull();
    expect(refusalEvidence({ reason: '', message: '' })).toBeNull();
  });
});
