import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { Count, Usd } from '../stream-fields.js';
import type { HarnessReport, HarnessTokens } from '../types.js';

const Init = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  model: z.string().optional(),
  claude_code_version: z.string().optional(),
});

const Assistant = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({
    content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).catch([]),
  }),
});

const Usage = z.looseObject({
  input_tokens: Count.catch(0),
  cache_read_input_tokens: Count.nullish().catch(null),
  cache_creation_input_tokens: Count.nullish().catch(null),
  output_tokens: Count.catch(0),
  output_tokens_details: z.looseObject({ thinking_tokens: Count.nullish() }).nullish().catch(null),
});

/** Per-model totals: `inputTokens` is uncached, like the API's `input_tokens`. */
const ModelUsage = z.looseObject({
  inputTokens: Count.catch(0),
  outputTokens: Count.catch(0),
  cacheReadInputTokens: Count.catch(0),
  cacheCreationInputTokens: Count.catch(0),
  thinkingTokens: Count.nullish().catch(null),
});

const Result = z.looseObject({
  type: z.literal('result'),
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  errors: z.array(z.string()).optional().catch(undefined),
  num_turns: Count.optional().catch(undefined),
  total_cost_usd: Usd.optional().catch(undefined),
  usage: Usage.optional().catch(undefined),
  modelUsage: z.record(z.string(), ModelUsage).optional().catch(undefined),
});
type Result = z.infer<typeof Result>;

/**
 * Reads `claude -p --output-format stream-json --verbose`. The final `result` event is the
 * authority for tokens, cost, turns and the answer; per-message `assistant` usage is only the
 * `message_start` snapshot (agent-clis.md §3.1) and is not summed.
 *
 * Failed: `result.is_error` (Claude Code sets it with `subtype: "success"` after exhausting
 * retries on API errors), an `error_*` subtype, or no `result` event at all.
 */
export function parseClaudeStream(stdout: string, exitCode: number | null): HarnessReport {
  let init: z.infer<typeof Init> | null = null;
  let result: Result | null = null;
  let lastText: string | null = null;
  for (const record of readJsonLines(stdout)) {
    const initParsed = Init.safeParse(record);
    if (initParsed.success) init ??= initParsed.data;
    const assistant = Assistant.safeParse(record);
    if (assistant.success) {
      const text = assistant.data.message.content.flatMap((b) => (b.type === 'text' && b.text ? [b.text] : [])).join('');
      if (text) lastText = text;
    }
    const resultParsed = Result.safeParse(record);
    if (resultParsed.success) result = resultParsed.data;
  }
  const failed = result === null || result.is_error === true || (result.subtype?.startsWith('error') ?? false) || (exitCode !== null && exitCode !== 0);
  return {
    tokens: result === null ? null : tokensOf(result),
    costUsd: result?.total_cost_usd ?? null,
    turns: result?.num_turns ?? null,
    finalMessage: result && !result.is_error ? (result.result ?? lastText) : null,
    errors: result === null ? [] : errorsOf(result),
    failed,
    model: modelOf(init?.model ?? null, result),
    version: init?.claude_code_version ?? null,
  };
}

/** Sums `modelUsage` (every model the session used, background ones included), else `usage`. */
function tokensOf(result: Result): HarnessTokens | null {
  const perModel = Object.values(result.modelUsage ?? {});
  if (perModel.length > 0) {
    const sum = (f: (m: z.infer<typeof ModelUsage>) => number) => perModel.reduce((total, m) => total + f(m), 0);
    const cacheRead = sum((m) => m.cacheReadInputTokens);
    const cacheWrite = sum((m) => m.cacheCreationInputTokens);
    const thinking = perModel.some((m) => typeof m.thinkingTokens === 'number') ? sum((m) => m.thinkingTokens ?? 0) : null;
    return {
      inputTokens: sum((m) => m.inputTokens) + cacheRead + cacheWrite,
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
      outputTokens: sum((m) => m.outputTokens),
      reasoningTokens: thinking ?? result.usage?.output_tokens_details?.thinking_tokens ?? null,
    };
  }
  const usage = result.usage;
  if (!usage) return null;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: usage.input_tokens + cacheRead + cacheWrite,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: usage.output_tokens,
    reasoningTokens: usage.output_tokens_details?.thinking_tokens ?? null,
  };
}

function errorsOf(result: Result): string[] {
  const errors = [...(result.errors ?? [])];
  if (result.is_error && result.result) errors.push(result.result);
  if (result.is_error && errors.length === 0) errors.push(`result ${result.subtype ?? 'without subtype'} with is_error`);
  return errors;
}

/**
 * The init event names the requested model; `modelUsage` names the ones billed. Claude Code
 * remaps retired ids (claude-opus-4-1 was answered as claude-opus-5-5), so when the init model
 * was not billed, the billed model with the most output wins.
 */
function modelOf(initModel: string | null, result: Result | null): string | null {
  const billed = Object.entries(result?.modelUsage ?? {});
  if (billed.length === 0 || (initModel !== null && billed.some(([name]) => name === initModel))) return initModel;
  billed.sort((a, b) => b[1].outputTokens - a[1].outputTokens);
  return billed[0]?.[0] ?? initModel;
}
