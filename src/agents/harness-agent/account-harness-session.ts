import type { MeteredRequest } from '../../meter/index.js';
import type { StreamReader } from '../harnesses/types.js';
import type { SessionResult } from '../types.js';
import { sessionCost, sumUsage, tokenDisagreements, type Price } from './account-session.js';
import { classifySession } from './classify-session.js';
import { requestRowsOf } from './request-rows.js';

/** Everything a finished harness session left, as plain data. */
export interface HarnessSessionFacts {
  /** The harness's stream reader (`Harness.stream`). */
  readonly harness: Pick<StreamReader, 'parse'>;
  /** The agent's model (the price of a request whose response names no model). */
  readonly model: string;
  /** What the CLI printed on stdout (its machine-readable stream). */
  readonly stream: string;
  readonly exec: { readonly exitCode: number | null; readonly timedOut: boolean; readonly limitHit: 'memory' | 'pids' | null };
  /** Every request the metering proxy relayed, in order. */
  readonly metered: readonly MeteredRequest[];
  readonly priceOf: (model: string, at: Date) => Price | null;
  readonly idleTimeoutMs: number;
  /** `network: model-api+web`: provider tools were let through (their use is recorded, not void). */
  readonly openWeb?: boolean;
  readonly durationMs: number;
  /** Flags found outside the stream and the meter (the network trace), kept after the accounting's own. */
  readonly extraFlags?: readonly string[];
}

/**
 * A harness session's result from what it left: the harness's own report (parsed from its
 * stream), the meter's tokens and the cost priced request by request, whether the instrument
 * broke (void, `classifySession`), flags where the harness's token counts disagree with the
 * meter or a price was missing, and the stored request rows. Pure: no files, no processes.
 */
export function accountHarnessSession(facts: HarnessSessionFacts): SessionResult {
  const { exec, metered } = facts;
  const report = facts.harness.parse(facts.stream, exec.exitCode);
  const usage = sumUsage(metered.map((r) => r.usage));
  const cost = sessionCost(metered, facts.priceOf, facts.model);
  const verdict = classifySession({
    exitCode: exec.exitCode,
    timedOut: exec.timedOut,
    limitHit: exec.limitHit,
    report,
    requests: metered,
    idleTimeoutSec: facts.idleTimeoutMs / 1000,
    openWeb: facts.openWeb ?? false,
  });
  const flags = [...tokenDisagreements(report.tokens, usage), ...cost.flags, ...(facts.extraFlags ?? [])];
  return {
    exitCode: exec.exitCode,
    timedOut: exec.timedOut && verdict === null,
    durationMs: facts.durationMs,
    limitHit: exec.limitHit,
    tokensIn: usage.inputTokens,
    tokensOut: usage.outputTokens,
    ...(cost.costUsd !== null ? { costUsd: cost.costUsd } : {}),
    usage,
    harness: report,
    requests: requestRowsOf(metered, cost.requests),
    flags,
    ...(verdict ? { error: verdict.detail, voidReason: verdict.reason } : {}),
  };
}
