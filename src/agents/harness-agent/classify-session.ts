import type { VoidReason } from '../../types.js';
import type { HarnessReport } from '../harnesses/types.js';
import { orderFileName } from '../../store/index.js';

/** A model request as the classification needs it (a slice of the proxy's record). */
export interface RequestOutcome {
  /** Null for calls that are not generations (a model listing, token counting). */
  readonly format: string | null;
  readonly status: number | null;
  readonly failure: string | null;
  /** The proxy's words on what went wrong (`MeteredRequest.detail`), or null. */
  readonly detail: string | null;
  /** Signs in the answer that the provider ran a tool (`MeteredRequest.providerToolUse`); absent or empty: none. */
  readonly providerToolUse?: readonly string[];
  /** The request's path (for the detail of a provider-tool void). */
  readonly path?: string;
}

export interface SessionFacts {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly limitHit: 'memory' | 'pids' | null;
  readonly report: HarnessReport;
  /** Every request the proxy relayed, in order (one cut off by the session's end is `client-aborted`). */
  readonly requests: readonly RequestOutcome[];
  readonly idleTimeoutSec: number;
  /** `network: model-api+web`: provider tools are let through, so their use is no fault of the instrument. */
  readonly openWeb?: boolean;
}

const UPSTREAM: Readonly<Record<string, VoidReason>> = {
  'rate-limited': 'upstream-rate-limited',
  'usage-limit': 'usage-limit',
  'server-error': 'upstream-error',
  hang: 'upstream-hang',
  truncated: 'upstream-truncated',
  malformed: 'upstream-malformed',
  unreachable: 'upstream-unreachable',
  auth: 'auth-error',
};

/** What to do about each void reason, said after the detail. */
const ADVICE: Readonly<Partial<Record<VoidReason, string>>> = {
  'upstream-error': 'The model API failed on its side: check the provider\'s status page and bake again later.',
  'upstream-rate-limited': 'The API key hit its rate limit: lower --concurrency, or raise the key\'s limit, and bake again.',
  'usage-limit': 'The subscription\'s plan limit or quota is used up (see the quota headers stored per request): wait for the window to reset, or raise the plan, and bake again; these runs are void, not losses.',
  'upstream-hang': 'The model API stopped sending: check the provider\'s status; if the model is just slow to start answering, raise --upstream-idle-timeout.',
  'upstream-truncated':
    'The answer stopped before its end, so the harness worked from a partial answer or none: check that nothing between bakeoff and the model API (a gateway, a proxy, a flaky network) cuts long responses, then bake again.',
  'upstream-malformed': 'The answer could not be read: check that --upstream points at the model API itself, not a page or a gateway that rewrites streams.',
  'upstream-unreachable': 'Check --upstream, and this machine\'s network and DNS to the model API.',
  'auth-error':
    'Check the API key in bakeoff\'s environment (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY or BAKEOFF_UPSTREAM_API_KEY, as --upstream needs).',
  'harness-error': `See ${orderFileName('stream')} and ${orderFileName('agentLog')} in the run's order folder for what the harness said.`,
  'harness-crash': `See ${orderFileName('agentLog')} and ${orderFileName('stream')} in the run's order folder; \`bakeoff doctor\` checks the installed CLIs.`,
  'no-final-answer': `See ${orderFileName('stream')} in the run's order folder for how the session ended.`,
  'provider-tool-used':
    `The model API ran a tool for the agent that the closed-web policy should have withheld (decision 013): the run's requests and ${orderFileName('modelResponses')} show which; please report it to bakeoff. The run is void, never scored.`,
};

/**
 * Whether a harness session broke the instrument (void, never a loss), and why, in a detail
 * that says what happened and what to do. The model API failing is judged by what the proxy
 * saw, not by what the CLI says: a session that ended (by giving up, crashing or running out of
 * time) right after a 429, a 5xx, a hang, an unreadable or cut stream, an unreachable API or a
 * refused key is void for that reason, whatever the exit code. A model answer that did not
 * arrive whole (a stream without its final event, a broken connection) voids the session
 * wherever it happened, whatever the CLI did with it: some CLIs take a cut stream as the answer
 * and exit 0, and the proxy cannot tell whether a retry replaced it. Requests cut off by the
 * session's end (the wall-clock kill) are not the API's failures: a session killed while
 * waiting less than the idle timeout for an answer is a plain timeout. Otherwise the CLI's own
 * error events, a crash, or a session without a final answer void it. Resource limits and a
 * plain timeout are left to the caller (they are the agent's failures). First of all, on the
 * closed web, an answer showing that the provider ran a tool (web search, code execution …)
 * voids the session `provider-tool-used`, however it ended: the tool policy failed, so nothing
 * the session did after is a measurement.
 */
export function classifySession(facts: SessionFacts): { reason: VoidReason; detail: string } | null {
  // before anything else, whatever the session did: an answer fed by the web is no measurement
  const used = facts.openWeb ? undefined : facts.requests.findIndex((r) => (r.providerToolUse?.length ?? 0) > 0);
  if (used !== undefined && used >= 0) {
    const request = facts.requests[used]!;
    const where = request.path === undefined ? '' : ` (${request.path.split('?', 1)[0]})`;
    return voided('provider-tool-used', `model request ${used + 1} of ${facts.requests.length}${where} came back showing that the provider ran a tool: ${request.providerToolUse!.join('; ')}`);
  }
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
    return voided(upstream, `the last ${failedInARow} model request(s) failed (${describe(last, facts)}); ${endedHow(facts)}`);
  }
  const cut = settled.filter((r) => r.failure === 'truncated');
  if (cut.length > 0) {
    const first = cut[0]!;
    const which = `model request ${settled.indexOf(first) + 1} of ${settled.length}`;
    const more = cut.length > 1 ? ` (and ${cut.length - 1} more)` : '';
    return voided('upstream-truncated', `${which}${more} did not arrive whole (${describe(first, facts)}); ${endedHow(facts)}`);
  }
  if (facts.timedOut) return null;
  if (report.failed) return voided('harness-error', report.errors.at(-1)?.slice(0, 500) || 'the harness reported a failed session without a message');
  if (facts.exitCode !== 0) return voided('harness-crash', `the harness exited with ${facts.exitCode === null ? 'a signal' : `status ${facts.exitCode}`} and no error event`);
  if (report.finalMessage === null) return voided('no-final-answer', 'the harness exited 0 without a final answer');
  return null;
}

function voided(reason: VoidReason, detail: string): { reason: VoidReason; detail: string } {
  const advice = ADVICE[reason];
  return { reason, detail: advice === undefined ? detail : `${detail}. ${advice}` };
}

/** The proxy's explanation of a failed request, else its status or class. */
function describe(request: RequestOutcome, facts: SessionFacts): string {
  if (request.detail) return request.detail;
  if (request.failure === 'hang') return `no bytes for ${facts.idleTimeoutSec} s`;
  return request.status !== null ? `HTTP ${request.status}` : request.failure ?? 'failed';
}

function endedHow(facts: SessionFacts): string {
  if (facts.timedOut) return 'the session ran out of time';
  if (facts.report.failed) return `the harness gave up${facts.exitCode === 0 ? ' (exit status 0)' : ` (exit status ${facts.exitCode})`}`;
  if (facts.exitCode !== 0) return `the harness exited with ${facts.exitCode === null ? 'a signal' : `status ${facts.exitCode}`}`;
  if (facts.report.finalMessage === null) return 'the harness ended without a final answer';
  return 'the harness still exited 0 with a final answer';
}

function countTail<T>(items: readonly T[], match: (item: T) => boolean): number {
  let n = 0;
  for (let i = items.length - 1; i >= 0 && match(items[i]!); i--) n++;
  return n;
}
