/** Terminal colour and cursor sequences, which some runners leave in their messages. */
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Longest message kept: enough to tell failures apart, short enough for any report. */
const MAX_LENGTH = 500;

/**
 * The first non-empty line of a message, without ANSI escapes, trimmed and capped to 500
 * characters; undefined when there is none. `skip` drops lines such as headings first.
 */
export function firstLine(text: string | undefined, skip?: (line: string) => boolean): string | undefined {
  if (text === undefined) return undefined;
  for (const raw of text.replace(ANSI_ESCAPE, '').split('\n')) {
    const line = raw.trim();
    if (line !== '' && !(skip?.(line) ?? false)) return line.slice(0, MAX_LENGTH);
  }
  return undefined;
}
