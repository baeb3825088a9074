import type { FailureClass } from './proxy-types.js';
import type { WireFormat } from '../types.js';

/** What `explainFailure` needs to know about a finished request. */
export interface FailureFacts {
  readonly format: WireFormat | null;
  readonly status: number | null;
  readonly streamed: boolean;
  /** Response body bytes received from upstream. */
  readonly bytes: number;
  /** True when the upstream connection broke after the response headers. */
  readonly broken: boolean;
  readonly breakCause: string | null;
  readonly missingFinalEvent: string | null;
  /** Everything the relay and the parser noted, in order. */
  readonly problems: readonly string[];
}

const MAX_LENGTH = 400;

/**
 * One sentence, in the proxy's words, on what happened to a failed request: e.g. `the
 * anthropic-messages stream ended after 1843 bytes without message_stop`, `the connection broke
 * after 512 bytes of the openai-responses stream (HTTP 200), before response.completed: aborted`,
 * `HTTP 429: rate_limit_error: …`. Stored with the request and quoted in void details.
 */
export function explainFailure(failure: FailureClass, facts: FailureFacts): string {
  return clip(sentence(failure, facts));
}

function sentence(failure: FailureClass, facts: FailureFacts): string {
  const { format, status, streamed, bytes, problems } = facts;
  const what = streamed ? `the ${format ?? 'HTTP'} stream` : `the ${format === null ? '' : `${format} `}response body`;
  const first = (pattern: RegExp): string | undefined => problems.find((p) => pattern.test(p));
  switch (failure) {
    case 'truncated': {
      if (!facts.broken) return `${what} ended after ${bytes} bytes without ${facts.missingFinalEvent ?? 'its end'}`;
      const before = facts.missingFinalEvent === null ? '' : `, before ${facts.missingFinalEvent}`;
      const cause = facts.breakCause === null ? ': the upstream closed the connection' : `: ${facts.breakCause}`;
      return `the connection broke after ${bytes} bytes of ${what} (HTTP ${status ?? '?'})${before}${cause}`;
    }
    case 'malformed': {
      const why = problems.filter((p) => !/^internal error/.test(p)).slice(0, 2).join('; ');
      return `${what} (HTTP ${status ?? '?'}) could not be read${why === '' ? '' : `: ${why}`}`;
    }
    case 'server-error': {
      const event = first(/: API error: /);
      return first(/^HTTP \d+: /) ?? (event === undefined ? `HTTP ${status ?? '?'}` : `${what} (HTTP ${status ?? '?'}) carried an error event: ${event}`);
    }
    case 'usage-limit':
      return `the subscription's usage limit was reached: ${first(/^HTTP \d+: /) ?? `HTTP ${status ?? '?'}`}`;
    case 'rate-limited':
    case 'client-error':
      return first(/^HTTP \d+: /) ?? `HTTP ${status ?? '?'}`;
    case 'auth':
      return first(/^HTTP \d+: |^no credentials/) ?? `HTTP ${status ?? '?'}`;
    case 'unreachable':
    case 'hang':
    case 'client-aborted':
    case 'refused':
      return problems[0] ?? failure;
  }
}

function clip(text: string): string {
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text;
}
