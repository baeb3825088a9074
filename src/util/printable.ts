const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

function escape(c: string): string {
  const code = c.charCodeAt(0);
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text from a run (a file name the agent chose, a runner's message) made safe to print: control
 * characters (C0, DEL, C1 — terminal escape sequences start with them) become `\xNN` escapes, so
 * nothing a run wrote can move the operator's cursor, retitle a window or hide text. Line breaks
 * and tabs stay; printable text, including non-ASCII letters, is unchanged.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, escape);
}

/** {@link printable} for one line: line breaks and tabs are escaped too (`\n`, `\t`). */
export function printableLine(text: string): string {
  return text.replace(CONTROL_OR_BREAK, escape);
}

/** A path for a message: printable on one line, and in quotes when it holds spaces or escapes. */
export function quotedPath(p: string): string {
  const safe = printableLine(p);
  return safe !== p || /\s|"/.test(p) ? `"${safe.replace(/"/g, '\\"')}"` : p;
}
