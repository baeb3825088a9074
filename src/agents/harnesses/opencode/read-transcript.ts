import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { pushError, textOf, toolCallOf, withExitCode, withFinal, type TranscriptEntry } from '../transcript.js';
import { parseOpencodeStream } from './parse-stream.js';

const Text = z.looseObject({ type: z.literal('text'), part: z.looseObject({ text: z.string() }) });
const ToolUse = z.looseObject({
  type: z.literal('tool_use'),
  part: z.looseObject({
    tool: z.string().catch('tool'),
    state: z
      .looseObject({
        status: z.string().optional().catch(undefined),
        input: z.unknown().optional(),
        output: z.unknown().optional(),
        error: z.unknown().optional(),
        /** The bash tool's exit status. */
        metadata: z.looseObject({ exit: z.number().nullish().catch(null) }).optional().catch(undefined),
      })
      .catch({}),
  }),
});
const ErrorEvent = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ name: z.string().optional(), data: z.looseObject({ message: z.string().optional() }).optional().catch(undefined) }).catch({}),
});

/**
 * The transcript of `opencode run --format json`: `text` parts, and `tool_use` parts, which
 * OpenCode prints once the tool has finished, call and result together (`state.input`, then
 * `state.output`, or `state.error` with status `error`; a bash call that exited non-zero is an
 * error too); `error` events. Step and reasoning
 * parts are left out. Never throws.
 */
export function readOpencodeTranscript(stdout: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const record of readJsonLines(stdout)) {
    const text = Text.safeParse(record);
    if (text.success) {
      if (text.data.part.text.trim() !== '') entries.push({ kind: 'text', text: text.data.part.text });
      continue;
    }
    const use = ToolUse.safeParse(record);
    if (use.success) {
      const { tool, state } = use.data.part;
      entries.push(toolCallOf(tool, state.input));
      const failed = state.status === 'error';
      const exit = state.metadata?.exit ?? null;
      const output = failed ? textOf(state.error ?? 'error') : textOf(state.output ?? '');
      if (state.output !== undefined || failed) entries.push({ kind: 'tool-result', tool, output: withExitCode(output, exit), isError: failed || (exit !== null && exit !== 0) });
      continue;
    }
    const error = ErrorEvent.safeParse(record);
    if (error.success) pushError(entries, error.data.error.data?.message ?? error.data.error.name ?? 'error event');
  }
  return withFinal(entries, parseOpencodeStream(stdout, null).finalMessage);
}
