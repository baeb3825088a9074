import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { pushError, textOf, toolCallOf, withFinal, type TranscriptEntry } from '../transcript.js';
import { parsePiStream } from './parse-stream.js';

const Block = z.looseObject({
  type: z.string(),
  text: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  arguments: z.unknown().optional(),
});

const MessageEnd = z.looseObject({
  type: z.literal('message_end'),
  message: z.looseObject({
    role: z.string(),
    content: z.unknown().optional(),
    toolName: z.string().optional().catch(undefined),
    isError: z.boolean().optional().catch(undefined),
    errorMessage: z.string().optional().catch(undefined),
  }),
});
const RetryStart = z.looseObject({ type: z.literal('auto_retry_start'), attempt: z.number().optional().catch(undefined), maxAttempts: z.number().optional().catch(undefined) });
const RetryEnd = z.looseObject({ type: z.literal('auto_retry_end'), success: z.boolean(), finalError: z.string().optional().catch(undefined) });

/**
 * The transcript of `pi -p --mode json`, from the `message_end` events (the `message_update`
 * deltas, `tool_execution_*` and `turn_end`/`agent_end` repeat them): an assistant message's
 * text and `toolCall` blocks, a `toolResult` message's content, an assistant message's
 * `errorMessage`; pi's own retries (`auto_retry_start`, a failed `auto_retry_end`) as errors.
 * The user message (the prompt) and thinking blocks are left out. Never throws.
 */
export function readPiTranscript(stdout: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const record of readJsonLines(stdout)) {
    const end = MessageEnd.safeParse(record);
    if (end.success) {
      const m = end.data.message;
      if (m.role === 'assistant') {
        const blocks = z.array(Block).catch([]).parse(m.content);
        for (const b of blocks) {
          if (b.type === 'text' && b.text) entries.push({ kind: 'text', text: b.text });
          if (b.type === 'toolCall') entries.push(toolCallOf(b.name ?? 'tool', b.arguments));
        }
        if (m.errorMessage) pushError(entries, m.errorMessage);
      } else if (m.role === 'toolResult') {
        entries.push({ kind: 'tool-result', tool: m.toolName ?? null, output: textOf(m.content), isError: m.isError === true });
      }
      continue;
    }
    const retry = RetryStart.safeParse(record);
    if (retry.success) pushError(entries, `retrying (attempt ${retry.data.attempt ?? '?'} of ${retry.data.maxAttempts ?? '?'})`);
    const gaveUp = RetryEnd.safeParse(record);
    if (gaveUp.success && !gaveUp.data.success) pushError(entries, gaveUp.data.finalError ?? 'auto retry gave up');
  }
  return withFinal(entries, parsePiStream(stdout, null).finalMessage);
}
