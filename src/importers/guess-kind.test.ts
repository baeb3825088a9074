import { describe, expect, it } from 'vitest';
import { guessKind } from './guess-kind.js';
import { originRepo } from './task-from-commit.js';

const diff = (removed: string[], added: string[], context: string[] = []) =>
  ['--- a/src/x.ts', '+++ b/src/x.ts', '@@ -1 +1 @@', ...context.map((l) => ` ${l}`), ...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join('\n');

describe('guessKind', () => {
  it('takes a subject that says it adds something as a feature', () => {
    for (const subject of ['Added an option to keep case', 'feat(parse): dates', 'Support ranges', 'adds strict mode']) expect(guessKind(subject, '').kind, subject).toBe('feature');
  });

  it('takes a change that adds a public name or reads a new option as a feature, whatever the subject says', () => {
    expect(guessKind('Tidy up', diff([], ['export function slugify(s: string) {']))).toEqual({ kind: 'feature', why: 'the change adds the public name slugify' });
    expect(guessKind('Tidy up', diff([], ['def parse_range(text):'])).kind).toBe('feature');
    expect(guessKind('Tidy up', diff([], ['pub fn hash_str(s: &str) -> u64 {'])).kind).toBe('feature');
    expect(guessKind('Tidy up', diff(['  return s;'], ['  if (options.keepCase) return s;'], ['  if (options.trim) s = s.trim();']))).toEqual({ kind: 'feature', why: 'the change reads a new option keepCase' });
  });

  it('guesses a bug fix for a change inside existing names that reads only existing options', () => {
    const fix = diff(['export function clamp(x, lo, hi) {', '  if (x < lo) return hi;'], ['export function clamp(x, lo, hi) {', '  if (x < options.lo) return lo;'], ['  if (options.lo) x = 0;']);
    expect(guessKind('Fix clamp() below the range', fix)).toMatchObject({ kind: 'bug' });
    expect(guessKind('Fix a private helper', diff([], ['def _helper():'])).kind).toBe('bug');
  });
});

describe('originRepo', () => {
  it('records the remote URL, else the repository name, never a local path', () => {
    expect(originRepo('https://github.com/a/b.git', '/home/me/b')).toBe('https://github.com/a/b.git');
    expect(originRepo('git@github.com:a/b.git', '/home/me/b')).toBe('git@github.com:a/b.git');
    expect(originRepo('https://me:secret@example.com/b.git', '/x')).not.toContain('secret');
    expect(originRepo(null, '/home/me/src/cachetools')).toBe('cachetools');
    expect(originRepo('/srv/mirrors/cachetools.git', '/home/me/c')).toBe('cachetools');
    expect(originRepo('file:///srv/m/chalk/', '/home/me/c')).toBe('chalk');
    expect(originRepo('../up', '/home/me/c')).toBe('up');
  });
});
