import { describe, expect, it } from 'vitest';
import { escapeControl } from './escape-control.js';

describe('escapeControl', () => {
  it('writes terminal escape sequences in a file name as visible text', () => {
    const name = 'src/\x1b[2J\x1b]0;owned\x07evil.js';
    const shown = escapeControl(name);
    expect(shown).toBe('src/\\x1b[2J\\x1b]0;owned\\x07evil.js');
    expect(shown).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('escapes C1 controls, DEL and bidi overrides, and line breaks unless asked to keep them', () => {
    expect(escapeControl('a\u009b31mb\u007fc')).toBe('a\\x9b31mb\\x7fc');
    expect(escapeControl('report\u202etxt.exe')).toBe('report\\u202etxt.exe');
    expect(escapeControl('one\ntwo\r\tthree')).toBe('one\\ntwo\\r\\tthree');
    expect(escapeControl('one\ntwo\x1b', { keepNewlines: true })).toBe('one\ntwo\\x1b');
  });

  it('leaves ordinary text, paths and non-ASCII letters unchanged', () => {
    for (const text of ['runs/3f2a/order-1/change.patch', 'C:\\temp\\x', 'café — 東京 ✓', '']) expect(escapeControl(text)).toBe(text);
  });
});
