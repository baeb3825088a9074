import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { pushError, textOf, toolCallsById, withFinal, type TranscriptEntry } from '../transcript.js';
import { parseGeminiStream } from './parse-stream.js';

const AssistantDelta = z.looseObject({ type: z.literal('message'), role: z.literal('assistant'), content: z.string() });
const ToolUse = z.looseObject({
  type: z.literal('tool_use'),
  tool_name: z.string().catch('tool'),
  tool_id: z.string().optional().catch(undefined),
  parameters: z.unknown().optional(),
});
const ToolResult = z.looseObject({
  type: z.literal('tool_result'),
  tool_id: z.string().optional().catch(undefined),
  status: z.string().optional().catch(undefined),
  output: z.unknown().optional(),
  error: z.looseObject({ message: z.string().optional().catch(undefined) }).optional().catch(undefined),
});
const ErrorEvent = z.looseObject({ type: z.literal('error'), message: z.string().catch('error event') });
const Result = z.looseObject({
  type: z.literal('result'),
  status: z.string().optional().catch(undefined),
  error: z.looseObject({ message: z.string().optional() }).optional().catch(undefined),
});

/**
 * The transcript of `gemini --output-format stream-json`: assistant `message` deltas joined
 * into one text until the next event, `tool_use` / `tool_result` (matched by `tool_id`; a
 * result without `output` says only its status), error events, and a `result` with
 * `status: "error"`. The user message (the prompt) is left out. Never throws.
 */
export function readGeminiTranscript(stdout: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const calls = toolCallsById();
  for (const record of readJsonLines(stdout)) {
    const delta = AssistantDelta.safeParse(record);
    if (delta.success) {
      const last = entries.at(-1);
      if (last?.kind === 'text') entries[entries.length - 1] = { kind: 'text', text: last.text + delta.data.content };
      else entries.push({ kind: 'text', text: delta.data.content });
      continue;
    }
    const use = ToolUse.safeParse(record);
    if (use.success) {
      entries.push(calls.call(use.data.tool_name, use.data.tool_id, use.data.parameters));
      continue;
    }
    const result = ToolResult.safeParse(record);
    if (result.success) {
      const r = result.data;
      const isError = r.status === 'error' || r.error !== undefined;
      const output = r.output !== undefined ? textOf(r.output) : isError ? (r.error?.message ?? 'error') : (r.status ?? '');
      entries.push({ kind: 'tool-result', tool: calls.toolOf(r.tool_id), output, isError });
      continue;
    }
    const error = ErrorEvent.safeParse(record);
    if (error.success) pushError(entries, error.data.message);
    const end = Result.safeParse(record);
    if (end.success && end.data.status === 'error') pushError(entries, end.data.error?.message ?? 'result status error');
  }
  return withFinal(entries.filter((e) => e.kind !== 'text' || e.text !== ''), parseGeminiStream(stdout, null).finalMessage);
}
