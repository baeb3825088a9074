import type { FailureClass } from './proxy-types.js';
import type { RequestUsage, WireFormat } from '../types.js';

/** A failure the relay itself saw (transport, timer, client); `broken`: the connection broke after the response headers. */
export type TransportFailure = 'unreachable' | 'hang' | 'client-aborted' | 'auth' | 'broken';

/** What the relay knows about a request once it ended. */
export interface RequestEnding {
  /** A failure the relay itself saw, which wins over the status (`broken` aside, see `classifyFailure`). */
  readonly transportFailure: TransportFailure | null;
  /** The upstream's HTTP status; null when no response came. */
  readonly status: number | null;
  readonly format: WireFormat | null;
  readonly usage: RequestUsage | null;
  /** Parse problems; an `API error:` problem in a 2xx stream means the provider failed mid-answer. */
  readonly problems: readonly string[];
  /** The stream's missing final event (`ParseUsageResult.missingFinalEvent`); null: it came, or not a stream. */
  readonly missingFinalEvent: string | null;
  /** Payloads that arrived whole but are not JSON. */
  readonly malformedPayloads: number;
}

/**
 * The failure class of a finished request (see `FailureClass`), or null for a clean answer.
 * Pure. For a 2xx generation: an API error event in the body (`overloaded_error` mid-stream) is
 * the provider's `server-error`; a body whose connection broke is `truncated` (unless the
 * stream's final event and usage had come: nothing was lost); readable usage and the final
 * event make a clean answer; otherwise a whole payload that is not JSON is `malformed` (garbage
 * rather than a cut), a stream that ended without its final event is `truncated` (counted usage
 * is kept: the answer still did not arrive whole), and a body without usage is `malformed`.
 */
export function classifyFailure(ending: RequestEnding): FailureClass | null {
  const { transportFailure, status, format, usage, problems, missingFinalEvent, malformedPayloads } = ending;
  if (transportFailure !== null && transportFailure !== 'broken') return transportFailure;
  if (status === null) return 'unreachable';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server-error';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 400) return 'client-error';
  const broken = transportFailure === 'broken';
  if (format === null || status < 200 || status >= 300) return broken ? 'truncated' : null;
  if (problems.some((p) => /: API error: /.test(p))) return 'server-error';
  if (broken) return usage !== null && missingFinalEvent === null ? null : 'truncated';
  if (usage !== null && missingFinalEvent === null) return null;
  if (malformedPayloads > 0) return 'malformed';
  return missingFinalEvent !== null ? 'truncated' : 'malformed';
}
