import { z } from 'zod';
import { readJsonLines } from '../read-json-lines.js';
import { formatToolInput, pushError, summaryOf, toolCallOf, withExitCode, withFinal, type TranscriptEntry } from '../transcript.js';
import { parseCodexStream } from './parse-stream.js';

const Change = z.looseObject({ path: z.string().catch('?'), kind: z.string().catch('change') });

const Item = z.looseObject({
  id: z.string().optional().catch(undefined),
  type: z.string(),
  text: z.string().optional().catch(undefined),
  message: z.string().optional().catch(undefined),
  command: z.union([z.string(), z.array(z.string())]).optional().catch(undefined),
  aggregated_output: z.string().optional().catch(undefined),
  exit_code: z.number().nullish().catch(null),
  status: z.string().optional().catch(undefined),
  changes: z.array(Change).optional().catch(undefined),
  server: z.string().optional().catch(undefined),
  tool: z.string().optional().catch(undefined),
  arguments: z.unknown().optional(),
  result: z.unknown().optional(),
  error: z.unknown().optional(),
  query: z.string().optional().catch(undefined),
});
type Item = z.infer<typeof Item>;

const ItemEvent = z.looseObject({ type: z.enum(['item.started', 'item.completed']), item: Item });
const ErrorEvent = z.looseObject({ type: z.literal('error'), message: z.string().catch('error event without message') });
const TurnFailed = z.looseObject({ type: z.literal('turn.failed'), error: z.looseObject({ message: z.string() }).optional().catch(undefined) });

/** Item types that are tool calls: started when the call is made, completed with its result. */
const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

/**
 * The transcript of `codex exec --json`: `agent_message` items are the text, tool items
 * (`command_execution`, `file_change` — Codex's apply_patch, which the stream gives as paths
 * and kinds only —, `mcp_tool_call`, `web_search`) a call when they start and a result when
 * they complete; `error` items, error events and `turn.failed` are errors. Reasoning items
 * and to-do lists are left out. Never throws.
 */
export function readCodexTranscript(stdout: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const called = new Set<string>();
  for (const record of readJsonLines(stdout)) {
    const event = ItemEvent.safeParse(record);
    if (event.success) {
      const { item } = event.data;
      if (TOOL_ITEMS.has(item.type)) {
        const key = item.id ?? `${entries.length}`;
        if (!called.has(key)) entries.push(callOf(item));
        called.add(key);
        if (event.data.type === 'item.completed') entries.push(resultOf(item));
      } else if (event.data.type === 'item.completed' && item.type === 'agent_message' && item.text) {
        entries.push({ kind: 'text', text: item.text });
      } else if (event.data.type === 'item.completed' && item.type === 'error') {
        pushError(entries, item.message ?? 'error item without message');
      }
      continue;
    }
    const error = ErrorEvent.safeParse(record);
    if (error.success) pushError(entries, error.data.message);
    const failed = TurnFailed.safeParse(record);
    if (failed.success) pushError(entries, failed.data.error?.message ?? 'turn.failed');
  }
  return withFinal(entries, parseCodexStream(stdout, null).finalMessage);
}

function callOf(item: Item): TranscriptEntry {
  if (item.type === 'file_change') {
    const changes = (item.changes ?? []).map((c) => `${c.kind} ${c.path}`);
    return { kind: 'tool-call', tool: item.type, summary: changes.join(', ') || null, input: changes.join('\n') };
  }
  if (item.type === 'mcp_tool_call') {
    return toolCallOf([item.server, item.tool].filter(Boolean).join('.') || item.type, item.arguments);
  }
  if (item.type === 'web_search') return { kind: 'tool-call', tool: item.type, summary: item.query ?? null, input: item.query ?? '' };
  const command = Array.isArray(item.command) ? item.command.join(' ') : (item.command ?? '');
  return { kind: 'tool-call', tool: item.type, summary: summaryOf({ command }), input: command };
}

function resultOf(item: Item): TranscriptEntry {
  const tool = item.type === 'mcp_tool_call' ? [item.server, item.tool].filter(Boolean).join('.') || item.type : item.type;
  const statusFailed = item.status === 'failed' || item.status === 'declined';
  if (item.type === 'command_execution') {
    const exit = item.exit_code ?? null;
    return { kind: 'tool-result', tool, output: withExitCode(item.aggregated_output ?? '', exit), isError: statusFailed || (exit !== null && exit !== 0) };
  }
  if (item.type === 'mcp_tool_call') {
    const failed = item.error !== undefined && item.error !== null;
    return { kind: 'tool-result', tool, output: formatToolInput(failed ? item.error : (item.result ?? '')), isError: statusFailed || failed };
  }
  return { kind: 'tool-result', tool, output: item.status ?? '', isError: statusFailed };
}
