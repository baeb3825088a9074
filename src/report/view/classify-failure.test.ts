import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Outcome, RunRecord } from '../../types.js';
import { classifyFailure, needsSessionClues } from './classify-failure.js';
import { FAIL_REASON_CLASS, VOID_REASON_CLASS } from './failure-classes.js';
import { toolCluesOf, type FailureEvidence, type SessionClues, type TestTally } from './failure-evidence.js';

function run(outcome: Outcome, extra: Partial<RunRecord> = {}): RunRecord {
  return {
    id: 'r1', suiteId: 's', suiteHash: 'h', controlsDigest: 'c', task: 't', replay: 0, seed: null, level: null,
    agent: { id: 'a', harness: 'claude-code', version: '2', model: 'm', effort: null },
    outcome, agentSec: 10, gradeSec: 1, costUsd: null, tokensIn: null, tokensOut: null, linesAdded: 3, linesRemoved: 1,
    points: 1, maxPoints: 3, orders: [{ order: 1, points: 1, maxPoints: 3 }], runtime: {}, startedAt: '', finishedAt: '', ...extra,
  };
}

const count = (passed: number, total: number, errored = 0) => ({ passed, total, errored });
function tests(f2p: [number, number, number?], p2p: [number, number, number?] = [0, 0], broken: string[] = [], generated: [number, number, number?] = [0, 0]): TestTally {
  return { failToPass: count(...f2p), passToPass: { ...count(...p2p), broken }, generated: count(...generated) };
}

function session(extra: Partial<SessionClues> = {}): SessionClues {
  return { order: 1, exitCode: 0, timedOut: false, finalMessage: 'Done.', harnessErrors: [], requests: [{ status: 200, failure: null, output: 40 }], tools: { calls: 2, errors: 0, rejected: 0, firstRejection: null }, ...extra };
}

const evidence = (e: Partial<FailureEvidence>): FailureEvidence => ({ tests: null, changeBytes: 120, sessions: null, ...e });
const failed = (reason: Extract<Outcome, { kind: 'failed' }>['reason'], detail?: string): Outcome => ({ kind: 'failed', reason, ...(detail ? { detail } : {}) });
const voided = (reason: Extract<Outcome, { kind: 'void' }>['reason']): Outcome => ({ kind: 'void', reason });

describe('classifyFailure: one class per run that was not solved, from stored evidence', () => {
  const cases: [name: string, RunRecord, FailureEvidence | null, cls: string, side: string, cause: string, detail?: RegExp][] = [
    ['a solved run has none', run({ kind: 'solved' }), null, '', '', ''],
    ['an empty change is no change', run(failed('tests-failed'), { linesAdded: 0, linesRemoved: 0 }), evidence({ changeBytes: 0, tests: tests([0, 2], [1, 1]) }), 'no-change', 'agent', 'empty-change'],
    ['a change of binary files only (0 lines, bytes in the patch) is graded, not "no change"', run(failed('tests-failed'), { linesAdded: 0, linesRemoved: 0 }), evidence({ changeBytes: 300, tests: tests([1, 2], [1, 1]) }), 'partly-passing', 'agent', 'fail-to-pass'],
    ['no expected test ran (all errored or missing): did not build', run(failed('tests-failed')), evidence({ tests: tests([0, 2, 2], [0, 1, 1], ['t::zero']) }), 'did-not-build', 'agent', 'no-test-ran', /none of the 3 expected tests/],
    ['a broken pass-to-pass test is a regression, named', run(failed('tests-failed')), evidence({ tests: tests([2, 2], [0, 1], ['test/math.test.mjs::adding zero']) }), 'regressions', 'agent', 'pass-to-pass-broken', /1 of 1 tests that passed before fail \(test\/math\.test\.mjs::adding zero\); 2 of 2 fail-to-pass tests pass/],
    ['k of n fail-to-pass', run(failed('tests-failed')), evidence({ tests: tests([1, 2], [1, 1]) }), 'partly-passing', 'agent', 'fail-to-pass', /^1 of 2 fail-to-pass tests pass$/],
    ['generated checks k of n', run(failed('checks-failed', '3 of 32 checks failed: gen-1 (wrong-result)')), evidence({ tests: tests([0, 0], [0, 0], [], [29, 32]) }), 'partly-passing', 'agent', 'checks', /^29 of 32 generated checks pass$/],
    ['generated checks that could not load the program: did not build', run(failed('checks-failed', '32 of 32 checks failed: boundary-1 (load-error: SyntaxError)')), evidence({ tests: tests([0, 0], [0, 0], [], [0, 32, 32]) }), 'did-not-build', 'agent', 'load-error'],
    ['the test command timed out', run(failed('tests-failed', 'order 1: the test command timed out')), evidence({ tests: tests([0, 2, 2]) }), 'test-limit', 'agent', 'time'],
    ['output over the limit', run(failed('output-limit')), null, 'test-limit', 'agent', 'output'],
    ['a protected path', run(failed('protected-path-changed')), null, 'protected-or-refused', 'agent', 'protected-path-changed'],
    ['tampering with the report', run(failed('report-tampered')), null, 'protected-or-refused', 'agent', 'report-tampered'],
    ['a nested repository', run(failed('unsupported-file')), null, 'protected-or-refused', 'agent', 'unsupported-file'],
    ['a change that could not be captured', run(failed('grading-error', 'order 1: capturing the change failed: x')), null, 'protected-or-refused', 'agent', 'capture-failed'],
    ['grading that broke on the change', run(failed('grading-error', 'order 1: grading this change failed: x')), null, 'did-not-build', 'agent', 'grading-error'],
    ['session out of time', run(failed('session-timeout')), null, 'session-limit', 'agent', 'time'],
    ['memory', run(failed('memory-limit')), null, 'session-limit', 'agent', 'memory'],
    ['processes', run(failed('pids-limit')), null, 'session-limit', 'agent', 'pids'],
    ['disk', run(failed('disk-limit')), null, 'session-limit', 'agent', 'disk'],
    ['a void timeout (timeoutIsVoid)', run(voided('timeout')), null, 'session-limit', 'agent', 'time'],
    ['the API answering 5xx', run(voided('upstream-error')), null, 'model-error', 'model', 'api-server-error'],
    ['429', run(voided('upstream-rate-limited')), null, 'model-error', 'model', 'api-rate-limited'],
    ['a hang', run(voided('upstream-hang')), null, 'model-error', 'model', 'api-hang'],
    ['an unreadable answer', run(voided('upstream-malformed')), null, 'model-error', 'model', 'api-malformed'],
    ['a cut answer', run(voided('upstream-truncated')), null, 'model-error', 'model', 'api-truncated'],
    ['a CLI crash', run(voided('harness-crash')), evidence({ sessions: [session({ exitCode: 1, finalMessage: null })] }), 'harness-error', 'harness', 'cli-crash'],
    ['an error event', run(voided('harness-error')), evidence({ sessions: [session()] }), 'harness-error', 'harness', 'error-event'],
    ['an error event after the API refused the request (400): the harness sent it', run(voided('harness-error')), evidence({ sessions: [session({ requests: [{ status: 400, failure: 'client-error', output: null }] })] }), 'harness-error', 'harness', 'request-rejected', /refused its only model request \(HTTP 400\)/],
    ['a session out of time after the API refused its last request: the harness waited instead of ending', run(failed('session-timeout')), evidence({ sessions: [session({ exitCode: null, timedOut: true, finalMessage: null, requests: [{ status: 400, failure: 'client-error', output: null }] })] }), 'harness-error', 'harness', 'request-rejected', /; it then waited until the wall clock$/],
    ['a session out of time with answered requests is the time limit', run(failed('session-timeout')), evidence({ sessions: [session({ exitCode: null, timedOut: true })] }), 'session-limit', 'agent', 'time'],
    ['a refused request the harness retried past, then no change: the model\'s answer, not the harness', run(failed('tests-failed'), { linesAdded: 0, linesRemoved: 0 }), evidence({ changeBytes: 0, sessions: [session({ requests: [{ status: 400, failure: 'client-error', output: null }, { status: 200, failure: null, output: 40 }], tools: { calls: 0, errors: 0, rejected: 0, firstRejection: null } })] }), 'no-change', 'agent', 'empty-change'],
    ['no final answer after an empty answer: the model', run(voided('no-final-answer')), evidence({ sessions: [session({ finalMessage: null, requests: [{ status: 200, failure: null, output: 0 }], tools: { calls: 0, errors: 0, rejected: 0, firstRejection: null } })] }), 'model-error', 'model', 'empty-answer'],
    ['no final answer otherwise: the harness', run(voided('no-final-answer')), evidence({ sessions: [session({ finalMessage: null })] }), 'harness-error', 'harness', 'no-final-answer'],
    ['the agent could not be started', run(voided('agent-error')), null, 'harness-error', 'harness', 'not-started'],
    ['the key refused: the account, not the agent', run(voided('auth-error')), null, 'instrument', 'instrument', 'auth-error'],
    ['infra', run(voided('infra-error')), null, 'instrument', 'instrument', 'infra-error'],
    ['a stopped pass', run(voided('pass-stopped')), null, 'instrument', 'instrument', 'pass-stopped'],
    ['no change, the model declined: a refusal', run(failed('tests-failed'), { linesAdded: 0, linesRemoved: 0 }), evidence({ changeBytes: 0, sessions: [session({ finalMessage: "I'm sorry, but I can't help with that request.", tools: { calls: 0, errors: 0, rejected: 0, firstRejection: null } })] }), 'model-error', 'model', 'refused', /declined the task: "I'm sorry, but I can't help/],
    ['no change, every tool call refused by the harness: the model called tools it does not have', run(failed('tests-failed'), { linesAdded: 0, linesRemoved: 0 }), evidence({ changeBytes: 0, sessions: [session({ tools: { calls: 2, errors: 2, rejected: 2, firstRejection: 'Error: No such tool available: no_such_tool' } })] }), 'model-error', 'model', 'tool-calls-rejected'],
    ['no change after a failing command and a look around is still no change', run(failed('tests-failed'), { linesAdded: 0, linesRemoved: 0 }), evidence({ changeBytes: 0, sessions: [session({ finalMessage: 'There are no notes; I leave the code as it is.', tools: { calls: 2, errors: 1, rejected: 0, firstRejection: null } })] }), 'no-change', 'agent', 'empty-change'],
    ['a graded failure with evidence but no check rows (an older folder) says how far its points got, not 0 of 0', run(failed('tests-failed')), evidence({ tests: null }), 'partly-passing', 'agent', 'points', /^1 of 3 expected tests or checks pass$/],
    ['without evidence, a graded failure says how far its points got', run(failed('tests-failed')), null, 'partly-passing', 'agent', 'points', /^1 of 3 expected tests or checks pass$/],
  ];
  it.each(cases)('%s', (_name, r, ev, cls, side, cause, detail) => {
    const f = classifyFailure(r, ev);
    if (cls === '') {
      expect(f).toBeNull();
      return;
    }
    expect(f).toMatchObject({ class: cls, side, cause, basis: ev ? 'evidence' : 'run-record' });
    if (detail) expect(f!.detail).toMatch(detail);
  });

  it('names the broken pass-to-pass tests and the fail-to-pass count on a regression', () => {
    const f = classifyFailure(run(failed('tests-failed')), evidence({ tests: tests([1, 2], [3, 5], ['a', 'b']) }));
    expect(f).toMatchObject({ broken: ['a', 'b'], expectedPassing: { passed: 1, total: 2 } });
  });

  it('classes a reason this version does not know by default: a failure as graded, a void as the instrument', () => {
    const unknownFail = { kind: 'failed', reason: 'provider-tool-used' } as unknown as Outcome;
    const unknownVoid = { kind: 'void', reason: 'machine-starved' } as unknown as Outcome;
    expect(classifyFailure(run(unknownFail), evidence({ tests: tests([0, 2], [1, 1]) }))).toMatchObject({ class: 'partly-passing' });
    expect(classifyFailure(run(unknownVoid), null)).toMatchObject({ class: 'instrument', side: 'instrument', cause: 'machine-starved' });
  });
});

describe('every fail and void reason of types.ts has a failure class', () => {
  // read from the source, so a reason added by another change without a class here fails this test (and typecheck) at merge
  const source = readFileSync(new URL('../../types.ts', import.meta.url), 'utf8');
  const members = (type: string): string[] => {
    const body = new RegExp(`export type ${type} =([\\s\\S]*?);`).exec(source)?.[1] ?? '';
    return [...body.matchAll(/\|\s*'([^']+)'/g)].map((m) => m[1]!);
  };
  it.each(members('FailReason'))('fail reason %s', (reason) => {
    expect(Object.keys(FAIL_REASON_CLASS)).toContain(reason);
  });
  it.each(members('VoidReason'))('void reason %s', (reason) => {
    expect(Object.keys(VOID_REASON_CLASS)).toContain(reason);
  });
  it('found the reasons (the test reads types.ts as it is written)', () => {
    expect(members('FailReason').length).toBeGreaterThan(10);
    expect(members('VoidReason').length).toBeGreaterThan(10);
  });
});

describe('needsSessionClues', () => {
  it('asks for sessions when a failure changed no lines, or a void the session decides', () => {
    expect(needsSessionClues(run(failed('tests-failed'), { linesAdded: 0, linesRemoved: 0 }))).toBe(true);
    expect(needsSessionClues(run(failed('tests-failed')))).toBe(false);
    expect(needsSessionClues(run(failed('session-timeout'), { linesAdded: 0, linesRemoved: 0 }))).toBe(true);
    expect(needsSessionClues(run(failed('memory-limit'), { linesAdded: 0, linesRemoved: 0 }))).toBe(false);
    expect(needsSessionClues(run(voided('harness-crash')))).toBe(true);
    expect(needsSessionClues(run(voided('upstream-error')))).toBe(false);
  });
});

describe('toolCluesOf', () => {
  it('counts calls, errored results and calls the harness refused', () => {
    const clues = toolCluesOf([
      { kind: 'tool-call', tool: 'no_such_tool', summary: null, input: '' },
      { kind: 'tool-result', tool: 'no_such_tool', output: '<tool_use_error>Error: No such tool available: no_such_tool</tool_use_error>', isError: true },
      { kind: 'tool-call', tool: 'Bash', summary: 'cat x', input: '' },
      { kind: 'tool-result', tool: 'Bash', output: 'cat: x: No such file or directory', isError: true },
    ]);
    expect(clues).toEqual({ calls: 2, errors: 2, rejected: 1, firstRejection: '<tool_use_error>Error: No such tool available: no_such_tool</tool_use_error>' });
  });
});
