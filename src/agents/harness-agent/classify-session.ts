import type { VoidReason } from '../../types.js';
import type { HarnessReport } from '../harnesses/types.js';

/** A model request as the classification needs it (a slice of the proxy's record). */
export interface RequestOutcome {
  /** Null for calls that are not generations (a model listing, token counting). */
  readonly format: string | null;
  readonly status: number | null;
  readonly failure: string | null;
}

export interface SessionFacts {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly limitHit: 'memory' | 'pids' | null;
  readonly report: HarnessReport;
  /** Every request the proxy relayed, in order (one cut off by the session's end is `client-aborted`). */
  readonly requests: readonly RequestOutcome[];
  readonly idleTimeoutSec: number;
}

const UPSTREAM: Readonly<Record<string, VoidReason>> = {
  'rate-limited': 'upstream-rate-limited',
  'server-error': 'upstream-error',
  hang: 'upstream-hang',
  malformed: 'upstream-malformed',
  unreachable: 'upstream-unreachable',
  auth: 'auth-error',
};

/**
 * Whether a harness session broke the instrument (void, never a loss), and why. The model API
 * failing is judged by what the proxy saw, not by what the CLI says: a session that ended (by
 * giving up, crashing or running out of time) right after a 429, a 5xx, a hang, an unreadable
 * stream, an unreachable API or a refused key is void for that reason, whatever the exit code.
 * Requests cut off by the session's end (the wall-clock kill) are not the API's failures: a
 * session killed while waiting less than the idle timeout for an answer is a plain timeout.
 * Otherwise the CLI's own error events, a crash, or a session without a final answer void it.
 * Resource limits and a plain timeout are left to the caller (they are the agent's failures).
 */
export function classifySession(facts: SessionFacts): { reason: VoidReason; detail: string } | null {
  if (facts.limitHit) return null;
  const { report } = facts;
  const ended = report.failed || facts.exitCode !== 0 || facts.timedOut || report.finalMessage === null;
  // generations only; those cut off when the session ended (killed at the wall clock) say nothing about the API
  const generations = facts.requests.filter((r) => r.format !== null);
  const settled = generations.slice(0, generations.length - countTail(generations, (r) => r.failure === 'client-aborted'));
  const last = settled.at(-1);
  const upstream = last?.failure ? UPSTREAM[last.failure] : undefined;
  if (ended && upstream && last) {
    const failedInARow = countTail(settled, (r) => r.failure === last.failure);
    const what = last.failure === 'hang' ? `no bytes for ${facts.idleTimeoutSec} s` : last.status !== null ? `HTTP ${last.status}` : last.failure!;
    return { reason: upstream, detail: `the last ${failedInARow} model request(s) failed (${what}); ${endedHow(facts)}` };
  }
  if (facts.timedOut) return null;
  if (report.failed) return { reason: 'harness-error', detail: report.errors.at(-1)?.slice(0, 500) ?? 'the harness reported a failed session' };
  if (facts.exitCode !== 0) return { reason: 'harness-crash', detail: `the harness exited with ${facts.exitCode === null ? 'a signal' : `status ${facts.exitCode}`} and no error event` };
  if (report.finalMessage === null) return { reason: 'no-final-answer', detail: 'the harness exited 0 without a final answer' };
  return null;
}

function endedHow(facts: SessionFacts): string {
  if (facts.timedOut) return 'the session ran out of time';
  if (facts.report.failed) return `the harness gave up${facts.exitCode === 0 ? ' (exit status 0)' : ` (exit status ${facts.exitCode})`}`;
  if (facts.exitCode !== 0) return `the harness exited with status ${facts.exitCode}`;
  return 'the harness ended without a final answer';
}

function countTail<T>(items: readonly T[], match: (item: T) => boolean): number {
  let n = 0;
  for (let i = items.length - 1; i >= 0 && match(items[i]!); i--) n++;
  return n;
}
