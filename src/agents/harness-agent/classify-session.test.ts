import { describe, expect, it } from 'vitest';
import type { HarnessReport } from '../harnesses/types.js';
import { classifySession, type SessionFacts } from './classify-session.js';

const ok: HarnessReport = { tokens: null, costUsd: null, turns: 2, finalMessage: 'Done.', errors: [], failed: false, model: null, version: null };
const req = (status: number | null, failure: string | null, format: string | null = 'anthropic-messages', detail: string | null = null) => ({ format, status, failure, detail });
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

  it('voids a session whose answer shows a provider-run tool, before anything else, however it ended (closed web)', () => {
    const used = { ...req(200, null), path: '/v1/messages?beta=true', providerToolUse: ['usage.server_tool_use.web_search_requests 1'] };
    for (const over of [{}, { limitHit: 'memory' as const }, { timedOut: true, exitCode: null }, { exitCode: 1, requests: [used, req(500, 'server-error')] }]) {
      const verdict = classifySession(facts({ requests: [req(200, null), used], ...over }));
      expect(verdict?.reason).toBe('provider-tool-used');
    }
    expect(classifySession(facts({ requests: [req(200, null), used] }))!.detail).toMatch(/^model request 2 of 2 \(\/v1\/messages\) came back showing that the provider ran a tool: usage\.server_tool_use\.web_search_requests 1\. /);
  });

  it('leaves provider tool use alone on the open web, where it was let through', () => {
    const used = { ...req(200, null), providerToolUse: ['output item web_search_call'] };
    expect(classifySession(facts({ requests: [used], openWeb: true }))).toBeNull();
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

  it('voids a session with a cut answer anywhere, even when the harness exited 0 with a final answer', () => {
    const cut = req(200, 'truncated', 'anthropic-messages', 'the anthropic-messages stream ended after 1843 bytes without message_stop');
    // Claude Code: a cut stream, a retry that worked, exit 0 and an answer
    const claude = classifySession(facts({ requests: [cut, req(200, null)] }));
    expect(claude).toMatchObject({ reason: 'upstream-truncated' });
    expect(claude!.detail).toMatch(/^model request 1 of 2 did not arrive whole \(the anthropic-messages stream ended after 1843 bytes without message_stop\); the harness still exited 0 with a final answer\. /);
    expect(claude!.detail).toContain('cuts long responses');
    // two cut, then a timeout: still the API's doing, not a plain timeout
    expect(classifySession(facts({ timedOut: true, exitCode: null, requests: [cut, req(200, null), cut, req(200, null)] }))).toMatchObject({
      reason: 'upstream-truncated', detail: expect.stringMatching(/^model request 1 of 4 \(and 1 more\) did not arrive whole .*the session ran out of time/),
    });
  });

  it('names a broken connection after the headers for what it is, not "unreachable" or "HTTP 200"', () => {
    const broken = req(200, 'truncated', 'openai-responses', 'the connection broke after 512 bytes of the openai-responses stream (HTTP 200), before response.completed (or .incomplete / .failed): ECONNRESET aborted');
    const codex = classifySession(facts({ exitCode: 1, report: { ...ok, failed: true, finalMessage: null }, requests: [broken, broken, broken] }));
    expect(codex).toMatchObject({ reason: 'upstream-truncated' });
    expect(codex!.detail).toMatch(/^the last 3 model request\(s\) failed \(the connection broke after 512 bytes/);
    expect(codex!.detail).not.toMatch(/failed \(HTTP 200\)|unreachable|could not be reached/);
  });

  it('says what to do after every void detail', () => {
    const cases: [Partial<SessionFacts>, RegExp][] = [
      [{ exitCode: 1, requests: [req(500, 'server-error', 'anthropic-messages', 'HTTP 500: api_error: boom')] }, /\(HTTP 500: api_error: boom\); the harness exited with status 1\. The model API failed on its side/],
      [{ exitCode: 1, requests: [req(429, 'rate-limited')] }, /lower --concurrency/],
      [{ exitCode: 1, requests: [req(401, 'auth')] }, /ANTHROPIC_API_KEY/],
      [{ exitCode: 1, requests: [req(502, 'unreachable')] }, /Check --upstream/],
      [{ exitCode: 1, requests: [req(200, 'malformed')] }, /points at the model API itself/],
      [{ timedOut: true, exitCode: null, requests: [req(504, 'hang')] }, /\(no bytes for 120 s\).*raise --upstream-idle-timeout/],
      [{ report: { ...ok, failed: true, errors: [''] } }, /^the harness reported a failed session without a message\. See stream\.jsonl/],
      [{ exitCode: 139 }, /status 139 and no error event\. See agent\.log/],
      [{ report: { ...ok, finalMessage: null } }, /without a final answer\. See stream\.jsonl/],
    ];
    for (const [over, detail] of cases) expect(classifySession(facts(over))?.detail).toMatch(detail);
  });

  it('voids harness errors, crashes and sessions without a final answer; leaves resource limits to the caller', () => {
    expect(classifySession(facts({ report: { ...ok, failed: true, errors: ['boom'] } }))).toMatchObject({ reason: 'harness-error', detail: expect.stringMatching(/^boom\. See /) });
    expect(classifySession(facts({ exitCode: 139 }))).toMatchObject({ reason: 'harness-crash' });
    expect(classifySession(facts({ report: { ...ok, finalMessage: null } }))).toMatchObject({ reason: 'no-final-answer' });
    expect(classifySession(facts({ exitCode: 137, limitHit: 'memory' }))).toBeNull();
  });
});
