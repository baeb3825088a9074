import { describe, expect, it } from 'vitest';
import { cleanCommitMessage, draftPrompt, withObserved } from './commit-prompt.js';

describe('cleanCommitMessage', () => {
  it('drops trailers, merge and cherry-pick lines, and a conventional-commit type; keeps the body', () => {
    const message = [
      'fix(test): fixed up preferred encoding tests (#42)',
      '',
      'The parent threw in every encoding call.',
      'fixes #103',
      'Closes jshttp/cookie#104, #105',
      'Signed-off-by: A Person <a@example.com>',
      '',
      '(cherry picked from commit 0123456789abcdef)',
      '',
      'Co-authored-by: B Person <b@example.com>',
      'Reviewed-on: https://example.com/r/1',
    ].join('\n');
    expect(cleanCommitMessage(message)).toEqual({ subject: 'fixed up preferred encoding tests', body: 'The parent threw in every encoding call.' });
  });

  it('keeps a body line that only looks like a trailer when other lines of its paragraph are prose', () => {
    expect(cleanCommitMessage('Fix parse\n\nNote: the old parser dropped quotes\nwhen a field ended in one.\n').body).toBe('Note: the old parser dropped quotes\nwhen a field ended in one.');
  });
});

describe('draft prompts', () => {
  const observed = [
    { id: 'test/a.test.js::raises values below', status: 'fail' as const, message: 'Expected values to be strictly equal: 10 !== 0' },
    { id: 'test/a.test.js::throws on `NaN`', status: 'error' as const, message: 'ReferenceError: lower is not defined at `clamp`' },
    { id: 'test/a.test.js::new file', status: 'missing' as const },
    { id: 'test/b.test.js::imports a new export', status: 'missing' as const, message: "SyntaxError: The requested module '../src/b.js' does not provide an export named 'b'" },
  ];

  it('adds each fail-to-pass test and how it failed at the parent, once, to a draft only', () => {
    const draft = draftPrompt('the message of commit abc', { message: 'tidy\n\nSigned-off-by: x <x@x>' });
    expect(draft).not.toContain('Signed-off-by');
    const added = withObserved(draft, observed)!;
    expect(added.startsWith(draft.trimEnd())).toBe(true);
    expect(added).toContain('- `test/a.test.js::raises values below` fails: `Expected values to be strictly equal: 10 !== 0`');
    expect(added).toContain('- `test/a.test.js::throws on `NaN`` errors: `` ReferenceError: lower is not defined at `clamp` ``');
    expect(added).toContain('- `test/a.test.js::new file` does not run (no result for it)');
    expect(added).toContain("- `test/b.test.js::imports a new export` does not run: its file fails: `SyntaxError: The requested module '../src/b.js' does not provide an export named 'b'`");
    expect(withObserved(added, observed)).toBeNull();
    expect(withObserved('Rewritten by its owner.\n', observed)).toBeNull();
    expect(withObserved(draft, [])).toBeNull();
  });
});
