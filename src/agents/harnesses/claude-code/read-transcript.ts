import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { pushError, textOf, toolCallsById, withFinal, type TranscriptEntry } from '../transcript.js';
import { parseClaudeStream } from './parse-stream.js';

const Block = z.looseObject({
  type: z.string(),
  text: z.string().optional().catch(undefined),
  id: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  input: z.unknown().optional(),
  tool_use_id: z.string().optional().catch(undefined),
  content: z.unknown().optional(),
  is_error: z.boolean().optional().catch(undefined),
});

const Message = z.looseObject({
  type: z.enum(['assistant', 'user']),
  message: z.looseObject({ content: z.union([z.string(), z.array(Block)]).catch([]) }),
  /** Set on the assistant message Claude Code makes up for an API error it gave up on. */
  is_api_error_message: z.boolean().optional().catch(undefined),
});

const ApiRetry = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('api_retry'),
  attempt: z.number().optional().catch(undefined),
  max_retries: z.number().optional().catch(undefined),
  error_status: z.number().nullish().catch(null),
  error: z.string().optional().catch(undefined),
});

/**
 * The transcript of `claude -p --output-format stream-json --verbose`: each `assistant` event
 * holds one content block (text, or a `tool_use` with its input); `user` events hold the
 * `tool_result` blocks, which name their call only by id. `api_retry` events and the message
 * Claude Code writes for an API error become errors; the answer and the result's errors are
 * what {@link parseClaudeStream} reads. Never throws.
 */
export function readClaudeTranscript(stdout: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const calls = toolCallsById();
  for (const record of readJsonLines(stdout)) {
    const retry = ApiRetry.safeParse(record);
    if (retry.success) {
      const r = retry.data;
      pushError(entries, `API request failed (${[r.error_status, r.error].filter((x) => x != null).join(' ') || 'error'}); retry ${r.attempt ?? '?'} of ${r.max_retries ?? '?'}`);
      continue;
    }
    const parsed = Message.safeParse(record);
    if (!parsed.success || typeof parsed.data.message.content === 'string') continue;
    const { type, message, is_api_error_message: apiError } = parsed.data;
    for (const block of message.content as z.infer<typeof Block>[]) {
      if (type === 'assistant' && block.type === 'text' && block.text) {
        if (apiError) pushError(entries, block.text);
        else entries.push({ kind: 'text', text: block.text });
      } else if (type === 'assistant' && block.type === 'tool_use') {
        entries.push(calls.call(block.name ?? 'tool', block.id, block.input));
      } else if (type === 'user' && block.type === 'tool_result') {
        entries.push({ kind: 'tool-result', tool: calls.toolOf(block.tool_use_id), output: textOf(block.content), isError: block.is_error === true });
      }
    }
  }
  const report = parseClaudeStream(stdout, null);
  for (const error of report.errors) pushError(entries, error);
  return withFinal(entries, report.finalMessage);
}
