import type { TranscriptEntry } from '../../types.js';

export type { TranscriptEntry };

/** A tool call with a structured input: its summary and its input as readable text. */
export function toolCallOf(tool: string, input: unknown): TranscriptEntry {
  return { kind: 'tool-call', tool, summary: summaryOf(input), input: formatToolInput(input ?? {}) };
}

/** The calls of a stream whose tool results name their call only by its id (Claude Code, Gemini CLI). */
export interface ToolCallsById {
  /** The call's entry; its tool is remembered under `id`. */
  call(tool: string, id: string | undefined, input: unknown): TranscriptEntry;
  /** The tool of the call `id` names, or null when no call had that id. */
  toolOf(id: string | undefined): string | null;
}

export function toolCallsById(): ToolCallsById {
  const tools = new Map<string, string>();
  return {
    call(tool, id, input) {
      if (id) tools.set(id, tool);
      return toolCallOf(tool, input);
    },
    toolOf: (id) => (id === undefined ? null : (tools.get(id) ?? null)),
  };
}

/** Input keys that say in one line what a tool call does, most telling first. */
const SUMMARY_KEYS = ['command', 'cmd', 'file_path', 'filePath', 'absolute_path', 'path', 'pattern', 'query', 'url', 'description'] as const;

/** The shell command or the path a tool input names (first of {@link SUMMARY_KEYS}), else null. */
export function summaryOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return null;
  const record = input as Record<string, unknown>;
  for (const key of SUMMARY_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim() !== '') return firstLine(value);
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string')) return firstLine(value.join(' '));
  }
  return null;
}

function firstLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines.length > 1 ? `${lines[0]} …` : lines[0]!;
}

/**
 * A tool input as text a person reads: one `key: value` line per field, a multi-line string as
 * an indented block under its key (an edit's old and new text read as code, not as JSON
 * escapes), nested objects and lists indented the same way; a string input as it is.
 */
export function formatToolInput(input: unknown): string {
  if (typeof input === 'string') return input;
  return formatValue(input, '').replace(/^[\n ]/, '');
}

/** `value` after its key (a leading space or a newline); `indent` is where its own lines start. */
function formatValue(value: unknown, indent: string): string {
  if (typeof value === 'string') {
    if (!value.includes('\n')) return ` ${value}`;
    return value.replace(/\n$/, '').split('\n').map((line) => `\n${indent}${line}`).join('');
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((item) => `\n${indent}-${formatValue(item, `${indent}  `)}`).join('');
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return ' {}';
    return entries.map(([key, v]) => `\n${indent}${key}:${formatValue(v, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(value) ?? String(value)}`;
}

/** The text of a tool result or message content: a string, or the `text` of its text blocks. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  return content
    .map((block: unknown) => {
      if (typeof block === 'string') return block;
      const b = block as { type?: unknown; text?: unknown };
      if (typeof b?.text === 'string') return b.text;
      return typeof b?.type === 'string' ? `[${b.type}]` : '';
    })
    .join('\n');
}

/**
 * Ends a transcript with the final answer: the text entries at its end that spell the answer
 * are replaced by one `final` entry (the harnesses print the answer as their last text); an
 * answer not found there is added at the end. No answer: the entries as they are.
 */
export function withFinal(entries: readonly TranscriptEntry[], final: string | null): TranscriptEntry[] {
  if (final === null) return [...entries];
  let start = entries.length;
  while (start > 0 && entries[start - 1]!.kind === 'text') start -= 1;
  const trailing = entries.slice(start).map((e) => (e.kind === 'text' ? e.text : ''));
  for (let from = 0; from < trailing.length; from++) {
    const rest = trailing.slice(from);
    if ([rest.join(''), rest.join('\n')].some((t) => t.trim() === final.trim())) {
      return [...entries.slice(0, start + from), { kind: 'final', text: final }];
    }
  }
  return [...entries, { kind: 'final', text: final }];
}

/** A shell tool's output with `(exit code N)` after it when the command exited non-zero (N a number, not null). */
export function withExitCode(output: string, exit: number | null): string {
  if (exit === null || exit === 0) return output;
  return `${output}${output && !output.endsWith('\n') ? '\n' : ''}(exit code ${exit})`;
}

/** Adds an error entry unless it repeats the one just before (a harness often prints an error twice). */
export function pushError(entries: TranscriptEntry[], message: string): void {
  const last = entries.at(-1);
  if (last?.kind === 'error' && last.message === message) return;
  entries.push({ kind: 'error', message });
}
