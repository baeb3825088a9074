/*
 * Characters a terminal obeys instead of showing: C0 (newline and tab included), DEL, C1, and
 * the bidirectional controls that make text display in another order than it has (U+061C,
 * U+200E–U+200F, U+202A–U+202E, U+2066–U+2069).
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` safe to print on a terminal: every control character written as a visible escape
 * (`\x1b`, `\n`, `\u202e`), so text that came from a run (a file name, a tool's error
 * message) reaches the operator as text, never as commands to the terminal. Text without
 * control characters is returned unchanged.
 *
 * @param options.keepNewlines keep `\n` as a line break (multi-line messages); escape the rest
 */
export function escapeControl(text: string, options: { readonly keepNewlines?: boolean } = {}): string {
  return text.replace(options.keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, (c) => NAMED[c] ?? hex(c));
}

function hex(c: string): string {
  const code = c.codePointAt(0)!;
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** A path for a message: escaped to one line, and in quotes when it holds spaces, quotes or escapes. */
export function quotedPath(p: string): string {
  const safe = escapeControl(p);
  return safe !== p || /\s|"/.test(p) ? `"${safe.replace(/"/g, '\\"')}"` : p;
}
