import { draftLine, DRAFT_MARKER, type ObservedTest } from '../suite/index.js';

/*
 * The draft prompt of a task made from a commit: the commit's subject and body, cleaned, and —
 * once admission has run the tests on the parent — what was observed there: the fail-to-pass
 * tests and how each failed, as an issue would report them. Nothing of the fix's code: the
 * messages are what the parent's code said when the new tests ran it. Still a draft (its first
 * line is the marker): the owner rewrites it.
 */

/** The heading of the observed section; a draft that has it is not given it again. */
export const OBSERVED_HEADING = '## What happens now';

/** Trailers git and the forges add, which say nothing about the problem. */
const TRAILER = /^(signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|suggested-by|helped-by|cc|change-id|pr-url|reviewed-on|merged-by|closes|fixes|refs|see-also|backport-pr-url):\s/i;
/** Any `Key: value` line (a trailer block is a last paragraph made of these only). */
const ANY_TRAILER = /^[A-Za-z][A-Za-z0-9-]*:\s+\S/;
/** Lines the tools write into a message: cherry-picks, squash and merge summaries, a forge's closing keywords (`closes #104`). */
const TOOL_LINE = /^(\(cherry picked from commit [0-9a-f]+\)|Merge (pull request|branch|remote-tracking branch) .*|git-svn-id: .*|(fix(e[sd])?|close[sd]?|resolve[sd]?|refs?)\s+([\w.-]+\/[\w.-]+)?#\d+([\s,]+(and\s+)?([\w.-]+\/[\w.-]+)?#\d+)*\.?)$/i;
/** A conventional-commit type in front of the subject: `fix(test): `, `feat!: `. */
const CONVENTIONAL = /^[a-z]+(\([^)]*\))?!?:\s+/i;

/** The commit message without trailers (Signed-off-by, Co-authored-by, a last paragraph of `Key: value` lines, merge and cherry-pick lines) and with a plain subject. */
export function cleanCommitMessage(message: string): { readonly subject: string; readonly body: string } {
  const lines = message.replace(/\r\n/g, '\n').split('\n');
  const subjectLine = (lines[0] ?? '').trim();
  const subject = subjectLine.replace(CONVENTIONAL, '').replace(/\s*\((#\d+)\)$/, '').trim() || subjectLine;
  const paragraphs = lines
    .slice(1)
    .filter((l) => !TRAILER.test(l.trim()) && !TOOL_LINE.test(l.trim()))
    .join('\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/^\n+|\s+$/g, ''))
    .filter((p) => p.trim() !== '');
  const last = paragraphs.at(-1);
  if (last !== undefined && last.split('\n').every((l) => ANY_TRAILER.test(l.trim()))) paragraphs.pop();
  return { subject, body: paragraphs.join('\n\n') };
}

/** A draft prompt from a commit message (cleaned) or an issue's text (as it is). */
export function draftPrompt(source: string, text: { readonly message: string } | { readonly issue: string }): string {
  if ('issue' in text) return `${draftLine(source)}\n\n${text.issue.trim()}\n`;
  const { subject, body } = cleanCommitMessage(text.message);
  return `${draftLine(source)}\n\n${subject}\n${body === '' ? '' : `\n${body}\n`}`;
}

/**
 * The draft with what admission observed on the parent added: each fail-to-pass test and how it
 * failed. Null when there is nothing to add: the prompt is no longer a draft (its owner has
 * rewritten it), already has the section, or no test was observed.
 */
export function withObserved(prompt: string, observed: readonly ObservedTest[]): string | null {
  if (!prompt.startsWith(DRAFT_MARKER) || prompt.includes(`\n${OBSERVED_HEADING}`) || observed.length === 0) return null;
  const lines = observed.map((t) => `- \`${t.id}\` ${howItFailed(t)}`);
  const section = [
    OBSERVED_HEADING,
    '',
    `Observed before the change (the commit's parent), with the tests that come with it${observed.length === 1 ? ' — this one fails' : ` — these ${observed.length} fail`}:`,
    '',
    ...lines,
    '',
    'They should pass, and the tests that pass now should keep passing.',
    '',
  ];
  return `${prompt.replace(/\s+$/, '')}\n\n${section.join('\n')}`;
}

function howItFailed(t: ObservedTest): string {
  const message = t.message === undefined ? '' : `: ${quoteLine(t.message)}`;
  switch (t.status) {
    case 'fail':
      return `fails${message}`;
    case 'error':
      return `errors${message}`;
    case 'skip':
      return 'is skipped';
    case 'missing':
      return t.message === undefined ? 'does not run (no result for it)' : `does not run: its file fails${message}`;
  }
}

/** A message as inline code, its backticks kept from closing it. */
function quoteLine(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}
