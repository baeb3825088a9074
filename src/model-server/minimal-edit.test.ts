import { describe, expect, it } from 'vitest';
import { minimalEdit, occurrences, splitLines } from './minimal-edit.js';

const apply = (before: string, oldText: string, newText: string): string => before.replace(oldText, newText);

describe('minimalEdit', () => {
  it('takes only the changed lines when they are unique', () => {
    const before = 'a\nb\nc\nd\n';
    const edit = minimalEdit(before, 'a\nb\nC\nd\n');
    expect(edit).toMatchObject({ oldText: 'c\n', newText: 'C\n', contextBefore: [], contextAfter: [], atEnd: false });
  });

  it('widens with context lines until the old text occurs exactly once', () => {
    const before = 'f() {\n  return 1;\n}\n\ng() {\n  return 1;\n}\n';
    const after = 'f() {\n  return 1;\n}\n\ng() {\n  return 2;\n}\n';
    const edit = minimalEdit(before, after)!;
    expect(edit.oldText).toBe('g() {\n  return 1;\n}\n');
    expect(occurrences(before, edit.oldText)).toBe(1);
    expect(apply(before, edit.oldText, edit.newText)).toBe(after);
    expect(edit).toMatchObject({ contextBefore: ['g() {\n'], removed: ['  return 1;\n'], added: ['  return 2;\n'], contextAfter: ['}\n'], atEnd: true });
  });

  it('anchors a pure insertion on its neighbours', () => {
    const before = 'one\ntwo\n';
    const after = 'one\ninserted\ntwo\n';
    const edit = minimalEdit(before, after)!;
    expect(edit).toMatchObject({ oldText: 'one\ntwo\n', newText: after, removed: [], added: ['inserted\n'] });
  });

  it('handles a last line without a newline on either side', () => {
    for (const [before, after] of [
      ['a\nb', 'a\nB'],
      ['a\nb', 'a\nb\n'],
      ['a\nb\n', 'a\nb'],
      ['x', 'y'],
    ] as const) {
      const edit = minimalEdit(before, after)!;
      expect(apply(before, edit.oldText, edit.newText)).toBe(after);
      expect(occurrences(before, edit.oldText)).toBe(1);
    }
  });

  it('keeps CRLF terminators inside the old and new text', () => {
    const edit = minimalEdit('one\r\ntwo\r\nthree\r\n', 'one\r\n2\r\nthree\r\n')!;
    expect(edit.oldText).toBe('two\r\n');
    expect(edit.newText).toBe('2\r\n');
  });

  it('uses the whole file when every line repeats', () => {
    const before = 'x\nx\nx\n';
    const edit = minimalEdit(before, 'x\nx\nx\nx\n')!;
    expect(apply(before, edit.oldText, edit.newText)).toBe('x\nx\nx\nx\n');
    expect(occurrences(before, edit.oldText)).toBe(1);
  });

  it('finds nothing to anchor in an empty file, and nothing to do for equal sides', () => {
    expect(minimalEdit('', 'new\n')).toBeNull();
    expect(minimalEdit('same\n', 'same\n')).toBeNull();
  });

  it('turns every random edit into a unique old text that reproduces the after side', () => {
    const lines = ['a\n', 'b\n', 'a\n', '\n', 'c\r\n', 'b'];
    let seed = 7;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 500; i++) {
      const pick = (): string => Array.from({ length: rand(8) }, () => lines[rand(lines.length)]).join('');
      const before = pick();
      const after = pick();
      const edit = minimalEdit(before, after);
      if (edit === null) {
        expect(before === '' || before === after).toBe(true);
        continue;
      }
      expect(occurrences(before, edit.oldText)).toBe(1);
      expect(apply(before, edit.oldText, edit.newText)).toBe(after);
    }
  });
});

describe('splitLines', () => {
  it('keeps terminators and a last line without one', () => {
    expect(splitLines('a\r\nb\n\nc')).toEqual(['a\r\n', 'b\n', '\n', 'c']);
    expect(splitLines('')).toEqual([]);
  });
});
