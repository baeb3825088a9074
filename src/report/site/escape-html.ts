/** Text as HTML: `&`, `<`, `>`, `"` and `'` replaced, so any text is safe in content and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * An id as HTML that a narrow column may break after its `:`, `/` and `@` (`<wbr>`), so
 * `opencode:anthropic/claude-sonnet-4-5` wraps between its parts, never inside a word.
 */
export function escapeBreakable(id: string): string {
  return escapeHtml(id).replace(/([:/@])/g, '$1<wbr>');
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * A file-name-safe slug for an agent id (`command:./my agent.sh` → `command-my-agent-sh`), made
 * unique against `taken` by a numeric suffix. Never empty, never starts with a dot.
 */
export function slugify(id: string, taken: ReadonlySet<string>): string {
  const base = id.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'agent';
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}
