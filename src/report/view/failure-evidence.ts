import type { TranscriptEntry } from '../../types.js';

/**
 * What the store and the run's artifacts hold about a run that was not solved, as the failure
 * anatomy reads it (read by the api from the store's `checks`, `sessions` and `requests`, the
 * order folders' stored changes and, where a rule needs it, the transcript of a model agent's stream).
 * Every part may be missing (a library caller, an old results folder): the rules then use what
 * the run record says.
 */
export interface FailureEvidence {
  /** The graded tests and checks of the run's orders, counted; null when not read. */
  readonly tests: TestTally | null;
  /** Bytes of the captured change over every order (the stored patches); null when not read. */
  readonly changeBytes: number | null;
  /** The agent's sessions, in order; null when not read. */
  readonly sessions: readonly SessionClues[] | null;
}

/** Passed, total and errored (status `error` or `missing`: never ran to an assertion) of one set of checks. */
export interface CheckCount {
  readonly passed: number;
  readonly total: number;
  readonly errored: number;
}

/** A run's graded tests by set: fail-to-pass, pass-to-pass (with the broken ones named) and generated checks. */
export interface TestTally {
  readonly failToPass: CheckCount;
  readonly passToPass: CheckCount & {
    /** Ids of the pass-to-pass tests that did not pass, sorted, at most {@link BROKEN_SHOWN}. */
    readonly broken: readonly string[];
  };
  readonly generated: CheckCount;
}

/** How many broken pass-to-pass tests a run names. */
export const BROKEN_SHOWN = 10;

/** What one agent session left that tells a harness failure from a model failure. */
export interface SessionClues {
  readonly order: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  /** The final answer as the harness reported it; null when none (or not a harness). */
  readonly finalMessage: string | null;
  /** Error messages the harness's stream reported. */
  readonly harnessErrors: readonly string[];
  /** The session's generation requests, in order, as the metering proxy recorded them. */
  readonly requests: readonly RequestClue[];
  /** Tool calls of the transcript and their results; null when the transcript was not read. */
  readonly tools: ToolClues | null;
}

/** A generation request's outcome: HTTP status, the proxy's failure class, output tokens. */
export interface RequestClue {
  readonly status: number | null;
  readonly failure: string | null;
  readonly output: number | null;
}

/** The tool calls of a session and what their results said. */
export interface ToolClues {
  readonly calls: number;
  /** Results flagged as errors (a failing command counts: most harnesses flag a non-zero exit). */
  readonly errors: number;
  /** Results in which the harness refused the call itself: an unknown tool, input it could not accept. */
  readonly rejected: number;
  /** The first rejection's text (first line, at most 200 characters), or null. */
  readonly firstRejection: string | null;
}

/**
 * How a harness says it refused a tool call itself (the model named a tool it does not have, or
 * gave input the tool's schema rejects), in the tool result's text. Versioned with the anatomy.
 */
const REJECTED_CALL = /no such tool|unknown tool|tool\b.{0,60}\bnot (?:found|available|registered)|not found in (?:the )?(?:tool )?registry|invalid (?:tool )?(?:input|arguments|parameters)|inputvalidationerror|failed to parse (?:tool |function )?(?:call )?arguments|unsupported (?:tool|call)|tool_use_error/i;

/** The tool clues of a transcript (`Harness.transcript`). Pure. */
export function toolCluesOf(transcript: readonly TranscriptEntry[]): ToolClues {
  let calls = 0;
  let errors = 0;
  let rejected = 0;
  let firstRejection: string | null = null;
  for (const entry of transcript) {
    if (entry.kind === 'tool-call') calls++;
    if (entry.kind !== 'tool-result') continue;
    if (entry.isError) errors++;
    if (REJECTED_CALL.test(entry.output.slice(0, 2000))) {
      rejected++;
      firstRejection ??= (entry.output.trim().split('\n')[0] ?? '').slice(0, 200);
    }
  }
  return { calls, errors, rejected, firstRejection };
}

/**
 * A final answer that declines the task, in its first 400 characters ("I'm sorry, but I can't
 * help with that", "I cannot assist with this request", "I won't do that"). Versioned with the anatomy.
 */
const REFUSAL = /\b(?:I|we)\s*(?:can(?:'|’)?t|cannot|can not|won(?:'|’)?t|will not|am unable to|(?:'|’)m unable to|am not able to|must decline to)\s+(?:help|assist|comply|do (?:that|this)|fulfil|fulfill|complete|provide|continue|make (?:that|this|these) change)/i;

/** The final answer declines the task. Pure. */
export function isRefusal(finalMessage: string | null): boolean {
  return finalMessage !== null && REFUSAL.test(finalMessage.slice(0, 400));
}
