import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { sumOrNull } from '../../../util/index.js';
import { Count, Usd } from '../stream-fields.js';
import type { HarnessReport } from '../types.js';

/** Per step (one model request): `input` is uncached and `output` EXCLUDES `reasoning`. */
const StepFinish = z.looseObject({
  type: z.literal('step_finish'),
  part: z.looseObject({
    tokens: z
      .looseObject({
        input: Count.catch(0),
        output: Count.catch(0),
        reasoning: Count.catch(0),
        cache: z.looseObject({ read: Count.catch(0), write: Count.catch(0) }).catch({ read: 0, write: 0 }),
      })
      .optional()
      .catch(undefined),
    cost: Usd.optional().catch(undefined),
  }),
});
type StepTokens = NonNullable<z.infer<typeof StepFinish>['part']['tokens']>;

const Text = z.looseObject({ type: z.literal('text'), part: z.looseObject({ text: z.string() }) });
const ToolUse = z.looseObject({ type: z.literal('tool_use') });
const ErrorEvent = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ name: z.string().optional(), data: z.looseObject({ message: z.string().optional() }).optional().catch(undefined) }).catch({}),
});

/**
 * Reads `opencode run --format json`. There is no run total: tokens and cost are the sums over
 * `step_finish` events, one per model request (so they are also the turns). The answer is the
 * text after the last tool call. Failed: an `error` event (the session error OpenCode prints
 * after its own retries), or no step finished. The stream names neither model nor version.
 */
export function parseOpencodeStream(stdout: string, exitCode: number | null): HarnessReport {
  const steps: StepTokens[] = [];
  const costs: (number | undefined)[] = [];
  const errors: string[] = [];
  let textsSinceTool: string[] = [];
  let stepCount = 0;
  for (const record of readJsonLines(stdout)) {
    const step = StepFinish.safeParse(record);
    if (step.success) {
      stepCount += 1;
      if (step.data.part.tokens) steps.push(step.data.part.tokens);
      costs.push(step.data.part.cost);
    } else if (ToolUse.safeParse(record).success) {
      textsSinceTool = [];
    } else {
      const text = Text.safeParse(record);
      if (text.success) textsSinceTool.push(text.data.part.text);
      const error = ErrorEvent.safeParse(record);
      if (error.success) errors.push(error.data.error.data?.message ?? error.data.error.name ?? 'error event');
    }
  }
  const sum = (f: (t: StepTokens) => number) => steps.reduce((total, t) => total + f(t), 0);
  const finalMessage = textsSinceTool.join('\n').trim();
  return {
    tokens:
      steps.length === 0
        ? null
        : {
            inputTokens: sum((t) => t.input + t.cache.read + t.cache.write),
            cacheReadTokens: sum((t) => t.cache.read),
            cacheWriteTokens: sum((t) => t.cache.write),
            outputTokens: sum((t) => t.output + t.reasoning),
            reasoningTokens: sum((t) => t.reasoning),
          },
    costUsd: sumOrNull(costs),
    turns: stepCount,
    finalMessage: finalMessage || null,
    errors,
    failed: errors.length > 0 || stepCount === 0 || (exitCode !== null && exitCode !== 0),
    model: null,
    version: null,
  };
}
