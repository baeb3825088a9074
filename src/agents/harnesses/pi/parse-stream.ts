import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { sumOrNull } from '../../../util/index.js';
import { Count, Usd } from '../stream-fields.js';
import type { HarnessReport } from '../types.js';

/** `input` is the UNCACHED input for every API (pi subtracts cached tokens itself); there is no reasoning field. */
const AssistantMessage = z.looseObject({
  role: z.literal('assistant'),
  model: z.string().optional().catch(undefined),
  stopReason: z.string().optional().catch(undefined),
  errorMessage: z.string().optional().catch(undefined),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).catch([]),
  usage: z
    .looseObject({
      input: Count.catch(0),
      output: Count.catch(0),
      cacheRead: Count.catch(0),
      cacheWrite: Count.catch(0),
      cost: z.looseObject({ total: Usd }).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
});
type AssistantMessage = z.infer<typeof AssistantMessage>;

const MessageEnd = z.looseObject({ type: z.literal('message_end'), message: AssistantMessage });
const RetryEnd = z.looseObject({ type: z.literal('auto_retry_end'), success: z.boolean(), finalError: z.string().optional().catch(undefined) });

const FAILED_STOPS = new Set(['error', 'aborted']);

/**
 * Reads `pi -p --mode json`. pi prints no run total: the tokens and cost are the sums over the
 * assistant `message_end` events (one per model request; `message_start` carries a snapshot
 * and `turn_end`/`agent_end` repeat the same messages, so neither is counted).
 *
 * pi exits 0 when the model API fails, so failure is read from the stream: the last assistant
 * message stopped with `error` (or `aborted`), or the last `auto_retry_end` says
 * `success: false`, or no assistant message arrived at all.
 */
export function parsePiStream(stdout: string, exitCode: number | null): HarnessReport {
  const messages: AssistantMessage[] = [];
  const errors: string[] = [];
  let retryGaveUp = false;
  for (const record of readJsonLines(stdout)) {
    const end = MessageEnd.safeParse(record);
    if (end.success) {
      messages.push(end.data.message);
      if (end.data.message.errorMessage) errors.push(end.data.message.errorMessage);
      continue;
    }
    const retry = RetryEnd.safeParse(record);
    if (retry.success) {
      retryGaveUp = !retry.data.success;
      if (!retry.data.success) errors.push(retry.data.finalError ?? 'auto retry gave up');
    }
  }
  const last = messages.at(-1);
  const lastFailed = last === undefined || FAILED_STOPS.has(last.stopReason ?? '');
  const usages = messages.flatMap((m) => (m.usage ? [m.usage] : []));
  const sum = (f: (u: (typeof usages)[number]) => number) => usages.reduce((total, u) => total + f(u), 0);
  const text = last && !lastFailed ? last.content.flatMap((b) => (b.type === 'text' && b.text ? [b.text] : [])).join('') : '';
  return {
    tokens:
      usages.length === 0
        ? null
        : {
            inputTokens: sum((u) => u.input + u.cacheRead + u.cacheWrite),
            cacheReadTokens: sum((u) => u.cacheRead),
            cacheWriteTokens: sum((u) => u.cacheWrite),
            outputTokens: sum((u) => u.output),
            reasoningTokens: null,
          },
    costUsd: sumOrNull(usages.map((u) => u.cost?.total)),
    turns: messages.filter((m) => !FAILED_STOPS.has(m.stopReason ?? '')).length,
    finalMessage: text || null,
    errors,
    failed: lastFailed || retryGaveUp || (exitCode !== null && exitCode !== 0),
    model: last?.model ?? null,
    version: null,
  };
}
