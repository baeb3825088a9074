import { escapeHtml } from './escape-html.js';
import type { TranscriptEntry } from '../../types.js';

/** How much of one text a transcript shows before it cuts with a note. */
export interface ClipLimits {
  readonly lines: number;
  readonly chars: number;
}

/** A tool's output (a file read, a test run) is cut soonest: the reader wants the gist. */
const RESULT_LIMITS: ClipLimits = { lines: 40, chars: 4000 };
/** A tool's input (an edit's old and new text, a file written). */
const INPUT_LIMITS: ClipLimits = { lines: 200, chars: 20000 };
/** The agent's texts, its answer and errors (and a run page's prompt). */
export const TEXT_LIMITS: ClipLimits = { lines: 400, chars: 40000 };
/** Entries per session drawn at most. */
const MAX_ENTRIES = 2000;

/** Options of {@link renderTranscript}. */
export interface TranscriptOptions {
  readonly entries: readonly TranscriptEntry[];
  /** Where the whole stream is, for the cut notes (the order folder's `stream` file, as `orderFilesInResults` names it). */
  readonly whole: string;
}

/**
 * A session as a list a person reads, entry by entry: what the agent said, each
 * tool call (its tool and the command or file it names, then its whole input), the tool's
 * result (marked when it failed), errors, and the final answer — each labelled in words, long
 * texts cut with a note saying how much was left out. Every text is escaped. Pure.
 */
export function renderTranscript(options: TranscriptOptions): string {
  const { entries, whole } = options;
  const items = entries.slice(0, MAX_ENTRIES).map((entry) => renderEntry(entry, whole));
  const more = entries.length > MAX_ENTRIES ? `<p class="tr-cut">${entries.length - MAX_ENTRIES} more entries not shown; the whole session is ${escapeHtml(whole)}.</p>` : '';
  const calls = entries.filter((e) => e.kind === 'tool-call').length;
  const counts = `<p class="context">${entries.length} entries, ${calls} tool ${calls === 1 ? 'call' : 'calls'}${entries.some((e) => e.kind === 'final') ? ', a final answer' : ', no final answer'}.</p>`;
  return `${counts}<ol class="transcript">${items.join('')}</ol>${more}`;
}

function renderEntry(entry: TranscriptEntry, whole: string): string {
  switch (entry.kind) {
    case 'text':
      return item('tr-said', 'agent', `<div class="tr-text">${clipped(entry.text, TEXT_LIMITS, whole)}</div>`);
    case 'tool-call': {
      const head = `<code class="tr-tool">${escapeHtml(entry.tool)}</code>${entry.summary === null ? '' : ` <code class="tr-summary">${escapeHtml(entry.summary)}</code>`}`;
      // an input of one line that only repeats the summary (`command: ls`, `file_path: /w/a.ts`) is not drawn twice
      const redundant = entry.summary !== null && !entry.input.includes('\n') && entry.input.endsWith(entry.summary);
      const input = entry.input.trim() === '' || redundant ? '' : pre(entry.input, INPUT_LIMITS, whole);
      return item('tr-call', 'tool call', `<div>${head}</div>${input}`);
    }
    case 'tool-result': {
      const label = `${entry.isError ? 'tool failed' : 'tool result'}${entry.tool === null ? '' : `: ${entry.tool}`}`;
      const body = entry.output === '' ? '<p class="tr-cut">(no output)</p>' : pre(entry.output, RESULT_LIMITS, whole);
      return item(`tr-result${entry.isError ? ' tr-failed' : ''}`, label, body);
    }
    case 'final':
      return item('tr-final', 'final answer', `<div class="tr-text">${clipped(entry.text, TEXT_LIMITS, whole)}</div>`);
    case 'error':
      return item('tr-error', 'error', `<div class="tr-text">${clipped(entry.message, TEXT_LIMITS, whole)}</div>`);
  }
}

function item(cls: string, label: string, body: string): string {
  return `<li class="${cls}"><div class="tr-label">${escapeHtml(label)}</div>${body}</li>`;
}

function pre(text: string, limits: ClipLimits, whole: string): string {
  return `<pre>${clipped(text, limits, whole)}</pre>`;
}

/** `text` escaped, cut to `limits` with a note of what was cut. */
export function clipped(text: string, limits: ClipLimits, whole: string): string {
  const { shown, cutLines, cutChars } = clip(text, limits);
  if (cutChars === 0) return escapeHtml(shown);
  return `${escapeHtml(shown)}\n<span class="tr-cut">… cut: ${cutLines > 0 ? `${cutLines} more lines, ` : ''}${cutChars} more characters not shown (the whole text is in ${escapeHtml(whole)})</span>`;
}

/** The first `limits.lines` lines of `text`, at most `limits.chars` characters, and what that left out. */
export function clip(text: string, limits: ClipLimits): { shown: string; cutLines: number; cutChars: number } {
  const lines = text.split('\n');
  let shown = lines.slice(0, limits.lines).join('\n');
  if (shown.length > limits.chars) shown = shown.slice(0, limits.chars);
  const cutChars = text.length - shown.length;
  const cutLines = cutChars === 0 ? 0 : lines.length - shown.split('\n').length;
  return { shown, cutLines, cutChars };
}
