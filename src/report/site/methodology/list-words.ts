/** `a`, `a and b`, `a, b and c`; `none` for no words. */
export function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? 'none';
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}
