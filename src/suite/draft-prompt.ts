/*
 * A prompt bakeoff drafted (from a commit message, an issue) that its owner has not yet
 * rewritten: its first line is this marker. `validate` says so for every such task and
 * `publish` refuses a suite that has one unless told; the owner edits the prompt and deletes
 * the line (which changes the suite hash, as any prompt edit does).
 */
export const DRAFT_MARKER = '<!-- bakeoff: DRAFT prompt';

export function draftLine(source: string): string {
  return `${DRAFT_MARKER}, written from ${source}. Rewrite it the way the repository's owner would put the problem (no hint of the fix), then delete this line. -->`;
}

export function isDraftPrompt(prompt: string): boolean {
  return prompt.startsWith(DRAFT_MARKER);
}
