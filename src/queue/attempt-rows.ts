import type { AttemptRow } from '../store/index.js';
import type { RunRecord } from '../types.js';
import type { AttemptStart, SpentRequest } from './jobs.js';

/** What an attempt's metered model requests add up to. */
export interface AttemptSpend {
  /** Null when a request with tokens had no price (as a run's cost is). */
  readonly costUsd: number | null;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly requests: number;
}

/** Adds up the requests a worker reported for an attempt (the requests without tokens count as requests only). */
export function sumSpent(spent: readonly SpentRequest[]): AttemptSpend {
  let cost = 0;
  let unpriced = false;
  let tokensIn = 0;
  let tokensOut = 0;
  for (const r of spent) {
    tokensIn += r.input ?? 0;
    tokensOut += r.output ?? 0;
    if (r.costUsd !== null) cost += r.costUsd;
    else if (r.input !== null || r.output !== null) unpriced = true;
  }
  return { costUsd: unpriced ? null : cost, tokensIn, tokensOut, requests: spent.length };
}

export interface AttemptRowsInput {
  readonly runId: string;
  /** Every start of the run, numbered from 1 in the order they started. */
  readonly starts: readonly (AttemptStart & { readonly attempt: number })[];
  /** The attempt whose record is stored, and that record; null when no worker handed one back. */
  readonly recorded: { readonly attempt: number; readonly record: RunRecord | null } | null;
  /** Whether the run's agent goes through the meter (a model agent): without one nothing is known of a lost attempt's spend. */
  readonly metered: boolean;
  /** What each abandoned attempt's worker reported of its model requests, by attempt number. */
  readonly spent: ReadonlyMap<number, readonly SpentRequest[]>;
}

/**
 * The attempts of a fleet run as stored: the recorded one with its run's own figures, each
 * abandoned one (its worker lost) with the spend its worker reported up to its last finished
 * model request — paid for, never part of the run's figures.
 */
export function attemptRows(input: AttemptRowsInput): AttemptRow[] {
  return input.starts.map((a) => {
    const base = { runId: input.runId, attempt: a.attempt, worker: a.worker, startedAt: a.startedAt };
    if (a.attempt === input.recorded?.attempt) {
      const record = input.recorded.record;
      return { ...base, state: 'recorded', costUsd: record?.costUsd ?? null, tokensIn: record?.tokensIn ?? null, tokensOut: record?.tokensOut ?? null, requests: record?.usage?.requests ?? null };
    }
    if (!input.metered) return { ...base, state: 'abandoned', costUsd: null, tokensIn: null, tokensOut: null, requests: null };
    return { ...base, state: 'abandoned', ...sumSpent(input.spent.get(a.attempt) ?? []) };
  });
}
