import type { MinimalEdit } from './minimal-edit.js';

/**
 * Patch texts for Codex's `apply_patch` (the `*** Begin Patch` format), and what that format
 * can express. apply_patch works on lines: it writes every added line with a newline, ends an
 * updated file with one, and keeps a CRLF file's line endings; so content without a final
 * newline, or with mixed or lone `\r`, cannot go through it (use the shell instead).
 */

/** `*** Add File`: each line `+`-prefixed; an empty file has no lines. */
export function addFilePatch(path: string, content: string): string {
  return wrap([`*** Add File: ${path}`, ...patchLines(content).map((l) => `+${l}`)]);
}

export function deleteFilePatch(path: string): string {
  return wrap([`*** Delete File: ${path}`]);
}

/** `*** Update File` with one hunk; `*** End of File` anchors a hunk that reaches the file's end. */
export function updateFilePatch(path: string, edit: MinimalEdit): string {
  const lines = (prefix: string, text: readonly string[]) => patchLines(text.join('')).map((l) => `${prefix}${l}`);
  return wrap([
    `*** Update File: ${path}`,
    '@@',
    ...lines(' ', edit.contextBefore),
    ...lines('-', edit.removed),
    ...lines('+', edit.added),
    ...lines(' ', edit.contextAfter),
    ...(edit.atEnd ? ['*** End of File'] : []),
  ]);
}

/** Whether `*** Add File` recreates `content` byte for byte. */
export function canAddFile(content: string): boolean {
  return content === '' || (content.endsWith('\n') && !content.includes('\r'));
}

/** Whether an `*** Update File` hunk turns `before` into `after` byte for byte. */
export function canUpdateFile(before: string, after: string): boolean {
  if (!after.endsWith('\n')) return false;
  const lf = !before.includes('\r') && !after.includes('\r');
  return lf || (onlyCrlf(before) && onlyCrlf(after));
}

/** Every `\n` is part of a `\r\n`, and no `\r` stands alone. */
export function onlyCrlf(text: string): boolean {
  return !/[^\r]\n|^\n|\r(?!\n)/.test(text);
}

function patchLines(text: string): string[] {
  return text === '' ? [] : text.replace(/\r?\n$/, '').split(/\r?\n/);
}

function wrap(body: readonly string[]): string {
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}
