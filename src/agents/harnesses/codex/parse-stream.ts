import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { Count } from '../stream-fields.js';
import type { HarnessReport, HarnessTokens } from '../types.js';

/** Cumulative over one turn; `input_tokens` includes cached (and cache-write) tokens, `output_tokens` includes reasoning. */
const TurnCompleted = z.looseObject({
  type: z.literal('turn.completed'),
  usage: z.looseObject({
    input_tokens: Count.catch(0),
    cached_input_tokens: Count.catch(0),
    cache_write_input_tokens: Count.nullish().catch(null),
    output_tokens: Count.catch(0),
    reasoning_output_tokens: Count.nullish().catch(null),
  }),
});
type TurnUsage = z.infer<typeof TurnCompleted>['usage'];

const TurnFailed = z.looseObject({
  type: z.literal('turn.failed'),
  error: z.looseObject({ message: z.string() }).optional().catch(undefined),
});

const ErrorEvent = z.looseObject({ type: z.literal('error'), message: z.string().catch('error event without message') });

const ItemCompleted = z.looseObject({
  type: z.literal('item.completed'),
  item: z.looseObject({ type: z.string(), text: z.string().optional(), message: z.string().optional() }),
});

/**
 * Reads `codex exec --json`. Tokens are the sum of `turn.completed.usage` (one per turn; `exec`
 * has one). The answer is the last `agent_message` item.
 *
 * Errors: `{"type":"error"}` events (also the "Reconnecting... n/5" retry notices), `turn.failed`,
 * and `error` items. Failed: `turn.failed`, or an error event with no `turn.completed` after
 * it, or no turn that ended. An `error` item is a warning ("Model metadata for `x` not found.
 * Defaulting to fallback metadata…") and does not fail the session.
 * The stream names neither the model nor the version, and does not say how many model
 * responses a turn took, so those are null.
 */
export function parseCodexStream(stdout: string, exitCode: number | null): HarnessReport {
  const usages: TurnUsage[] = [];
  const errors: string[] = [];
  let finalMessage: string | null = null;
  let turnFailed = false;
  let unrecoveredError = false;
  for (const record of readJsonLines(stdout)) {
    const completed = TurnCompleted.safeParse(record);
    if (completed.success) {
      usages.push(completed.data.usage);
      unrecoveredError = false;
      continue;
    }
    const failed = TurnFailed.safeParse(record);
    if (failed.success) {
      turnFailed = true;
      errors.push(failed.data.error?.message ?? 'turn.failed');
      continue;
    }
    const error = ErrorEvent.safeParse(record);
    if (error.success) {
      unrecoveredError = true;
      errors.push(error.data.message);
      continue;
    }
    const item = ItemCompleted.safeParse(record);
    if (!item.success) continue;
    if (item.data.item.type === 'agent_message' && item.data.item.text !== undefined) finalMessage = item.data.item.text;
    if (item.data.item.type === 'error') errors.push(item.data.item.message ?? 'error item without message');
  }
  const ended = usages.length > 0 || turnFailed;
  return {
    tokens: usages.length === 0 ? null : sumUsage(usages),
    costUsd: null,
    turns: null,
    finalMessage,
    errors,
    failed: turnFailed || unrecoveredError || !ended || (exitCode !== null && exitCode !== 0),
    model: null,
    version: null,
  };
}

function sumUsage(usages: readonly TurnUsage[]): HarnessTokens {
  const sum = (f: (u: TurnUsage) => number) => usages.reduce((total, u) => total + f(u), 0);
  const reported = (f: (u: TurnUsage) => number | null | undefined) => usages.some((u) => typeof f(u) === 'number');
  return {
    inputTokens: sum((u) => u.input_tokens),
    cacheReadTokens: sum((u) => u.cached_input_tokens),
    cacheWriteTokens: reported((u) => u.cache_write_input_tokens) ? sum((u) => u.cache_write_input_tokens ?? 0) : null,
    outputTokens: sum((u) => u.output_tokens),
    reasoningTokens: reported((u) => u.reasoning_output_tokens) ? sum((u) => u.reasoning_output_tokens ?? 0) : null,
  };
}
