import { describe, expect, it } from 'vitest';
import type { HarnessReport } from '../harnesses/types.js';
import { classifySession, type SessionFacts } from './classify-session.js';

const ok: HarnessReport = { tokens: null, costUsd: null, turns: 2, finalMessage: 'Done.', errors: [], failed: false, model: null, version: null };
const req = (status: number | null, failure: string | null, format: string | null = 'anthropic-messages') => ({ format, status, failure });
const facts = (over: Partial<SessionFacts>): SessionFacts => ({
  exitCode: 0, timedOut: false, limitHit: null, report: ok, requests: [req(200, null)], idleTimeoutSec: 120, ...over,
});

describe('classifySession', () => {
  it('leaves a clean session alone', () => {
    expect(classifySession(facts({}))).toBeNull();
  });

  it('voids a session that gave up after upstream failures, by what the proxy saw, even with exit status 0', () => {
    const storm = [req(200, null), req(500, 'server-error'), req(500, 'server-error')];
    const pi = classifySession(facts({ requests: storm, report: { ...ok, failed: true, finalMessage: null, errors: ['500'] } }));
    expect(pi).toMatchObject({ reason: 'upstream-error' });
    expect(pi!.detail).toContain('last 2 model request(s) failed (HTTP 500)');
    expect(pi!.detail).toContain('exit status 0');
    expect(classifySession(facts({ exitCode: 1, requests: [req(429, 'rate-limited')] }))).toMatchObject({ reason: 'upstream-rate-limited' });
    expect(classifySession(facts({ exitCode: 1, requests: [req(401, 'auth')] }))).toMatchObject({ reason: 'auth-error' });
    expect(classifySession(facts({ exitCode: 1, requests: [req(502, 'unreachable')] }))).toMatchObject({ reason: 'upstream-unreachable' });
    expect(classifySession(facts({ exitCode: 1, requests: [req(200, 'malformed')] }))).toMatchObject({ reason: 'upstream-malformed' });
  });

  it('calls a session that ran out of time while waiting on the model a hang, and a plain timeout the caller\'s business', () => {
    expect(classifySession(facts({ timedOut: true, exitCode: null, requests: [req(504, 'hang')] }))).toMatchObject({ reason: 'upstream-hang' });
    expect(classifySession(facts({ timedOut: true, exitCode: null }))).toBeNull();
    // the request in flight when the wall clock killed the CLI was cut off by the kill, not by the API
    const hangs = [req(504, 'hang'), req(504, 'hang'), req(null, 'client-aborted')];
    expect(classifySession(facts({ timedOut: true, exitCode: null, requests: hangs }))).toMatchObject({ reason: 'upstream-hang', detail: expect.stringContaining('last 2 model request(s)') });
  });

  it('judges the API by generation requests only', () => {
    const limited = [req(429, 'rate-limited'), req(200, null, null)];
    expect(classifySession(facts({ exitCode: 1, requests: limited }))).toMatchObject({ reason: 'upstream-rate-limited' });
  });

  it('does not blame the API when the harness recovered from a failed request', () => {
    expect(classifySession(facts({ requests: [req(429, 'rate-limited'), req(200, null)] }))).toBeNull();
    expect(classifySession(facts({ requests: [req(200, null), req(500, 'server-error')] }))).toBeNull();
  });

  it('voids harness errors, crashes and sessions without a final answer; leaves resource limits to the caller', () => {
    expect(classifySession(facts({ report: { ...ok, failed: true, errors: ['boom'] } }))).toEqual({ reason: 'harness-error', detail: 'boom' });
    expect(classifySession(facts({ exitCode: 139 }))).toMatchObject({ reason: 'harness-crash' });
    expect(classifySession(facts({ report: { ...ok, finalMessage: null } }))).toMatchObject({ reason: 'no-final-answer' });
    expect(classifySession(facts({ exitCode: 137, limitHit: 'memory' }))).toBeNull();
  });
});
