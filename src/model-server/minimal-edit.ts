/**
 * The smallest unique replacement that turns `before` into `after`, for edit tools that take
 * an old and a new string (and for apply_patch hunks, which are the same lines).
 */
export interface MinimalEdit {
  /** Text to find in `before`: occurs there exactly once. Whole lines, terminators kept. */
  readonly oldText: string;
  readonly newText: string;
  /** Unchanged lines kept around the change to make `oldText` unique. */
  readonly contextBefore: readonly string[];
  readonly removed: readonly string[];
  readonly added: readonly string[];
  readonly contextAfter: readonly string[];
  /** True when the old lines run to the end of `before`. */
  readonly atEnd: boolean;
}

/**
 * Takes the changed middle between the common prefix and suffix of lines, then widens it by
 * one context line on each side until the old text occurs exactly once in `before`. Returns
 * null when no old text can be unique: `before` is empty, or equals `after`.
 */
export function minimalEdit(before: string, after: string): MinimalEdit | null {
  if (before === '' || before === after) return null;
  const a = splitLines(before);
  const b = splitLines(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  for (let wide = 0; ; wide++) {
    const lead = Math.min(wide, prefix);
    const trail = Math.min(wide, suffix);
    const oldLines = a.slice(prefix - lead, a.length - suffix + trail);
    const oldText = oldLines.join('');
    if (oldText !== '' && occurrences(before, oldText) === 1) {
      return {
        oldText,
        newText: b.slice(prefix - lead, b.length - suffix + trail).join(''),
        contextBefore: a.slice(prefix - lead, prefix),
        removed: a.slice(prefix, a.length - suffix),
        added: b.slice(prefix, b.length - suffix),
        contextAfter: a.slice(a.length - suffix, a.length - suffix + trail),
        atEnd: trail === suffix,
      };
    }
    // The whole of `before` occurs once in itself, so this ends by then at the latest.
    if (lead === prefix && trail === suffix) return null;
  }
}

/** Lines with their terminators (`\n`, `\r\n`); the last one may have none. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** How often `needle` occurs in `haystack`, overlaps counted. */
export function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) count++;
  return count;
}
