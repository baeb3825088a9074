import { describe, expect, it } from 'vitest';
import { linesOfDiff, linesOfName, linesOfNames, linesOfText, parseRawDiff, SCREEN_WIDTH } from './review-lines.js';

describe('linesOfText', () => {
  it('counts a plain line, a CRLF line and an empty line as one', () => {
    expect(linesOfText('const a = 1;')).toBe(1);
    expect(linesOfText('const a = 1;\r')).toBe(1);
    expect(linesOfText('')).toBe(1);
  });

  it('ends a line at every terminator a graded language honours: a lone CR, U+2028, U+2029', () => {
    expect(linesOfText('a = 1\rb = 2\rc = 3')).toBe(3);
    expect(linesOfText('let a = 1;\u2028let b = 2;\u2029let c = 3;')).toBe(3);
    expect(linesOfText('x\r\u2028y\r')).toBe(3);
  });

  it('counts a line wider than the screen once per screen width, in characters, not bytes', () => {
    expect(linesOfText('x'.repeat(SCREEN_WIDTH))).toBe(1);
    expect(linesOfText('x'.repeat(SCREEN_WIDTH + 1))).toBe(2);
    expect(linesOfText('é'.repeat(SCREEN_WIDTH))).toBe(1);
    expect(linesOfText('😀'.repeat(SCREEN_WIDTH * 2))).toBe(2);
    expect(linesOfText(`${'x'.repeat(450)}\u2028y`)).toBe(4);
  });
});

describe('linesOfName', () => {
  it('counts a name once per 32 bytes, at least once', () => {
    expect(linesOfName('index.ts')).toBe(1);
    expect(linesOfName('x'.repeat(32))).toBe(1);
    expect(linesOfName('x'.repeat(33))).toBe(2);
    expect(linesOfName('x'.repeat(255))).toBe(8);
    expect(linesOfName('é'.repeat(16))).toBe(1);
    expect(linesOfName('é'.repeat(17))).toBe(2);
  });
});

describe('linesOfDiff', () => {
  it('counts added and removed lines of every hunk, content that looks like a header included', () => {
    const diff = [
      'diff --git a/a.js b/a.js',
      'index 1111111..2222222 100644',
      '--- a/a.js',
      '+++ b/a.js',
      '@@ -2 +2,3 @@ function x() {',
      '-  return 1;',
      '+  return 2;',
      '+++ looks like a header',
      '+--- and so does this',
      '@@ -9,0 +12 @@',
      '+last',
      '\\ No newline at end of file',
      'diff --git a/b.js b/b.js',
      'deleted file mode 100644',
      '--- a/b.js',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-one\u2028two',
      '-three',
      '',
    ].join('\n');
    expect(linesOfDiff(diff)).toEqual({ added: 4, removed: 4 });
  });

  it('counts a link target as the text it is', () => {
    const diff = ['diff --git a/l b/l', 'new file mode 120000', '--- /dev/null', '+++ b/l', '@@ -0,0 +1,2 @@', '+line one', '+line two', '\\ No newline at end of file', ''].join('\n');
    expect(linesOfDiff(diff)).toEqual({ added: 2, removed: 0 });
  });
});

describe('linesOfNames', () => {
  const raw = (entries: [string, string, string, string][]): string => entries.map(([a, b, s, p]) => `:${a} ${b} ${'0'.repeat(40)} ${'1'.repeat(40)} ${s}\0${p}\0`).join('');

  it('reads git diff --raw -z', () => {
    expect(parseRawDiff(raw([['000000', '100644', 'A', 'a b\nc'], ['100644', '100755', 'M', 'x']]))).toEqual([
      { srcMode: '000000', dstMode: '100644', status: 'A', path: 'a b\nc' },
      { srcMode: '100644', dstMode: '100755', status: 'M', path: 'x' },
    ]);
  });

  it('counts the name of every added file and of every folder the change creates, once each, and one line per mode or type change', () => {
    const entries = parseRawDiff(
      raw([
        ['000000', '100644', 'A', 'src/new.js'],
        ['000000', '100644', 'A', 'fresh/deeper/a.js'],
        ['000000', '100644', 'A', 'fresh/deeper/b.js'],
        ['100644', '100755', 'M', 'run.sh'],
        ['100644', '100644', 'M', 'src/old.js'],
        ['100644', '120000', 'T', 'link'],
        ['100644', '000000', 'D', 'gone.js'],
      ]),
    );
    // new.js, a.js, b.js, fresh, deeper; run.sh's mode; link's type
    expect(linesOfNames(entries, new Set(['src']))).toBe(7);
  });

  it('counts a long name per 32 bytes', () => {
    const name = 'A'.repeat(250);
    expect(linesOfNames(parseRawDiff(raw([['000000', '100644', 'A', `.p/${name}`]])), new Set())).toBe(8 + 1);
  });
});
