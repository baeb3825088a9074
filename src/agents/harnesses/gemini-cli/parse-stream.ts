import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { Count } from '../stream-fields.js';
import type { HarnessReport, HarnessTokens } from '../types.js';

const Init = z.looseObject({ type: z.literal('init'), model: z.string().optional().catch(undefined) });
const AssistantDelta = z.looseObject({ type: z.literal('message'), role: z.literal('assistant'), content: z.string() });
const ToolUse = z.looseObject({ type: z.literal('tool_use') });
/** Warnings ("Loop detected") and errors ("Maximum session turns exceeded") the CLI reports mid-run. */
const ErrorEvent = z.looseObject({ type: z.literal('error'), severity: z.string().optional().catch(undefined), message: z.string().catch('error event') });

/**
 * Session totals: `input_tokens` includes `cached`; `output_tokens` is the candidates count,
 * thoughts EXCLUDED; `total_tokens` is the API's total, thoughts included.
 */
const Stats = z.looseObject({
  total_tokens: Count.catch(0),
  input_tokens: Count.catch(0),
  output_tokens: Count.catch(0),
  cached: Count.catch(0),
  models: z.record(z.string(), z.looseObject({ output_tokens: Count.catch(0) })).optional().catch(undefined),
});
type Stats = z.infer<typeof Stats>;

const Result = z.looseObject({
  type: z.literal('result'),
  status: z.string().optional().catch(undefined),
  error: z.looseObject({ message: z.string().optional() }).optional().catch(undefined),
  stats: Stats.optional().catch(undefined),
});
type Result = z.infer<typeof Result>;

/**
 * Reads `gemini --output-format stream-json`. Tokens from `result.stats`; stream-json has no
 * thoughts field, so reasoning = total − input − output (it would also hold any tool-use prompt
 * tokens the API counts in its total). Cache writes are not reported. The answer is the
 * assistant deltas after the last tool call. Failed: `result.status: "error"` (exit 244), an
 * error event of severity `error`, or no result.
 * The model is the one the stats billed: the init event names the requested id, which the CLI
 * may have swapped (gemini-3-pro-preview ran as gemini-3.1-pro-preview).
 */
export function parseGeminiStream(stdout: string, exitCode: number | null): HarnessReport {
  let initModel: string | null = null;
  let result: Result | null = null;
  let deltas: string[] = [];
  const errors: string[] = [];
  let severeError = false;
  for (const record of readJsonLines(stdout)) {
    const init = Init.safeParse(record);
    if (init.success) initModel ??= init.data.model ?? null;
    if (ToolUse.safeParse(record).success) deltas = [];
    const delta = AssistantDelta.safeParse(record);
    if (delta.success) deltas.push(delta.data.content);
    const error = ErrorEvent.safeParse(record);
    if (error.success) {
      errors.push(error.data.message);
      severeError ||= error.data.severity === 'error';
    }
    const parsed = Result.safeParse(record);
    if (parsed.success) result = parsed.data;
  }
  const resultFailed = result === null || result.status === 'error';
  if (result?.status === 'error') errors.push(result.error?.message ?? 'result status error');
  const text = deltas.join('');
  return {
    tokens: result?.stats ? tokensOf(result.stats) : null,
    costUsd: null,
    turns: null,
    finalMessage: resultFailed || text === '' ? null : text,
    errors,
    failed: resultFailed || severeError || (exitCode !== null && exitCode !== 0),
    model: billedModel(result?.stats?.models) ?? initModel,
    version: null,
  };
}

function tokensOf(stats: Stats): HarnessTokens {
  const thoughts = Math.max(0, stats.total_tokens - stats.input_tokens - stats.output_tokens);
  return {
    inputTokens: stats.input_tokens,
    cacheReadTokens: stats.cached,
    cacheWriteTokens: null,
    outputTokens: stats.output_tokens + thoughts,
    reasoningTokens: thoughts,
  };
}

/** The model with the most output in the per-model stats, or null when there are none. */
function billedModel(models: Stats['models']): string | null {
  const entries = Object.entries(models ?? {});
  entries.sort((a, b) => b[1].output_tokens - a[1].output_tokens);
  return entries[0]?.[0] ?? null;
}
