import type { FailureClass } from './proxy-types.js';
import type { RequestUsage, WireFormat } from './types.js';

/** What the relay knows about a request once it ended. */
export interface RequestEnding {
  /** A failure the relay itself saw (transport, timer, client), which wins over the status. */
  readonly transportFailure: 'unreachable' | 'hang' | 'client-aborted' | 'auth' | null;
  /** The upstream's HTTP status; null when no response came. */
  readonly status: number | null;
  readonly format: WireFormat | null;
  readonly usage: RequestUsage | null;
  /** Parse problems; an `API error:` problem in a 2xx stream means the provider failed mid-answer. */
  readonly problems: readonly string[];
}

/**
 * The failure class of a finished request (see `FailureClass`), or null for a clean answer.
 * Pure. A 2xx generation without readable usage is `malformed`, unless the body carried an API
 * error event (`overloaded_error` mid-stream), which is the provider's `server-error`.
 */
export function classifyFailure(ending: RequestEnding): FailureClass | null {
  const { transportFailure, status, format, usage, problems } = ending;
  if (transportFailure !== null) return transportFailure;
  if (status === null) return 'unreachable';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server-error';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 400) return 'client-error';
  if (format === null || status < 200 || status >= 300 || usage !== null) return null;
  return problems.some((p) => /: API error: /.test(p)) ? 'server-error' : 'malformed';
}
