import { describe, expect, it } from 'vitest';
import type { HarnessReport } from '../harnesses/types.js';
import { classifySession, type SessionFacts } from './classify-session.js';

const ok: HarnessReport = { tokens: null, costUsd: null, turns: 2, finalMessage: 'Done.', errors: [], failed: false, model: null, version: null };
const facts = (over: Partial<SessionFacts>): SessionFacts => ({
  exitCode: 0, timedOut: false, limitHit: null, report: ok, requests: [{ status: 200, failure: null }], pending: 0, idleTimeoutSec: 120, ...over,
});

describe('classifySession', () => {
  it('leaves a clean session alone', () => {
    expect(classifySession(facts({}))).toBeNull();
  });

  it('voids a session that gave up after upstream failures, by what the proxy saw, even with exit status 0', () => {
    const storm = [{ status: 200, failure: null }, { status: 500, failure: 'server-error' }, { status: 500, failure: 'server-error' }];
    const pi = classifySession(facts({ requests: storm, report: { ...ok, failed: true, finalMessage: null, errors: ['500'] } }));
    expect(pi).toMatchObject({ reason: 'upstream-error' });
    expect(pi!.detail).toContain('last 2 model request(s) failed (HTTP 500)');
    expect(pi!.detail).toContain('exit status 0');
    expect(classifySession(facts({ exitCode: 1, requests: [{ status: 429, failure: 'rate-limited' }] }))).toMatchObject({ reason: 'upstream-rate-limited' });
    expect(classifySession(facts({ exitCode: 1, requests: [{ status: 401, failure: 'auth' }] }))).toMatchObject({ reason: 'auth-error' });
    expect(classifySession(facts({ exitCode: 1, requests: [{ status: 502, failure: 'unreachable' }] }))).toMatchObject({ reason: 'upstream-unreachable' });
    expect(classifySession(facts({ exitCode: 1, requests: [{ status: 200, failure: 'malformed' }] }))).toMatchObject({ reason: 'upstream-malformed' });
  });

  it('calls a session that ran out of time while waiting on the model a hang, and a plain timeout the caller\'s business', () => {
    expect(classifySession(facts({ timedOut: true, pending: 1, exitCode: null }))).toMatchObject({ reason: 'upstream-hang' });
    expect(classifySession(facts({ timedOut: true, exitCode: null, requests: [{ status: 504, failure: 'hang' }] }))).toMatchObject({ reason: 'upstream-hang' });
    expect(classifySession(facts({ timedOut: true, exitCode: null }))).toBeNull();
    // the request in flight when the wall clock killed the CLI was cut off by the kill, not by the API
    const hangs = [{ status: 504, failure: 'hang' }, { status: 504, failure: 'hang' }, { status: null, failure: 'client-aborted' }];
    expect(classifySession(facts({ timedOut: true, exitCode: null, requests: hangs }))).toMatchObject({ reason: 'upstream-hang', detail: expect.stringContaining('last 2 model request(s)') });
  });

  it('does not blame the API when the harness recovered from a failed request', () => {
    expect(classifySession(facts({ requests: [{ status: 429, failure: 'rate-limited' }, { status: 200, failure: null }] }))).toBeNull();
    expect(classifySession(facts({ requests: [{ status: 200, failure: null }, { status: 500, failure: 'server-error' }] }))).toBeNull();
  });

  it('voids harness errors, crashes and sessions without a final answer; leaves resource limits to the caller', () => {
    expect(classifySession(facts({ report: { ...ok, failed: true, errors: ['boom'] } }))).toEqual({ reason: 'harness-error', detail: 'boom' });
    expect(classifySession(facts({ exitCode: 139 }))).toMatchObject({ reason: 'harness-crash' });
    expect(classifySession(facts({ report: { ...ok, finalMessage: null } }))).toMatchObject({ reason: 'no-final-answer' });
    expect(classifySession(facts({ exitCode: 137, limitHit: 'memory' }))).toBeNull();
  });
});
