/*
 * Whether a commit is a bug fix or a feature, from its subject and from its change: a subject
 * that says it adds something, or a change that adds a public name (an exported function, class
 * or constant, a public Python or Rust item) or reads an option no line it replaces read, is a
 * feature. Everything else is guessed a bug fix. A guess for the author to confirm (`--kind`).
 */

const FEATURE_SUBJECT = /^(\w+(\([^)]*\))?!?:\s*)?(feat|feature|adds?|added|adding|implement(s|ed)?|support(s|ed)?|allow(s|ed)?|introduce(s|d)?|new)\b/i;
const CONVENTIONAL_FEAT = /^feat(\([^)]*\))?!?:/i;

/** Declarations that add a public name, by language of the line: [pattern, group holding the name]. */
const PUBLIC_NAMES: readonly RegExp[] = [
  /^\s*export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/,
  /^(?:async\s+)?def\s+([A-Za-z]\w*)\s*\(/,
  /^class\s+([A-Za-z]\w*)\b/,
  /^\s*pub\s+(?:const\s+|async\s+|unsafe\s+)*(?:fn|struct|enum|trait|const|static|type|mod)\s+([A-Za-z]\w*)/,
];
/** An option read by name: `options.strict`, `opts["strict"]`, `kwargs.get("strict")`, `config.strict`. */
const OPTION_READ = /\b(?:options|opts|config|settings|kwargs)(?:\.get\(\s*|\[\s*|\??\.)['"]?([A-Za-z_]\w*)/g;

export function guessKind(subject: string, gold: string): { kind: 'bug' | 'feature'; why: string } {
  if (FEATURE_SUBJECT.test(subject) || CONVENTIONAL_FEAT.test(subject)) return { kind: 'feature', why: 'the commit subject' };
  const added: string[] = [];
  const other: string[] = [];
  for (const line of gold.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added.push(line.slice(1));
    else if (line.startsWith('-') || line.startsWith(' ')) other.push(line.slice(1));
  }
  const before = other.join('\n');
  for (const line of added) {
    for (const re of PUBLIC_NAMES) {
      const name = re.exec(line)?.[1];
      if (name !== undefined && !new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(before)) return { kind: 'feature', why: `the change adds the public name ${name}` };
    }
  }
  const readBefore = new Set([...before.matchAll(OPTION_READ)].map((m) => m[1]!));
  for (const line of added) {
    for (const m of line.matchAll(OPTION_READ)) if (!readBefore.has(m[1]!)) return { kind: 'feature', why: `the change reads a new option ${m[1]!}` };
  }
  return { kind: 'bug', why: 'the commit subject and the change (no new public name or option)' };
}
