import { describe, expect, it } from 'vitest';
import { formatToolInput, pushError, summaryOf, textOf, withExitCode, withFinal, type TranscriptEntry } from './transcript.js';

describe('summaryOf', () => {
  it('names the command first, then the path, of a tool input', () => {
    expect(summaryOf({ description: 'List', command: 'ls -la' })).toBe('ls -la');
    expect(summaryOf({ command: ['bash', '-lc', 'npm test'] })).toBe('bash -lc npm test');
    expect(summaryOf({ file_path: '/w/a.ts', content: 'x' })).toBe('/w/a.ts');
    expect(summaryOf({ command: 'cat <<EOF\nhello\nEOF' })).toBe('cat <<EOF …');
    expect(summaryOf({ content: 'x' })).toBeNull();
    expect(summaryOf('*** Begin Patch')).toBeNull();
  });
});

describe('formatToolInput', () => {
  it('writes fields one a line, multi-line text as an indented block, lists and nested objects indented', () => {
    expect(formatToolInput({ path: '/w/a.ts', edits: [{ old: 'a\nb\n', new: 'c' }], force: true, n: 2, none: null })).toBe(
      'path: /w/a.ts\nedits:\n  -\n    old:\n      a\n      b\n    new: c\nforce: true\nn: 2\nnone: null',
    );
    expect(formatToolInput('*** Begin Patch\n*** End Patch')).toBe('*** Begin Patch\n*** End Patch');
    expect(formatToolInput({})).toBe('{}');
    expect(formatToolInput(42)).toBe('42');
    expect(formatToolInput({ list: [], obj: {} })).toBe('list: []\nobj: {}');
  });
});

describe('textOf', () => {
  it('reads a string, text blocks, and names other blocks by type', () => {
    expect(textOf('plain')).toBe('plain');
    expect(textOf([{ type: 'text', text: 'a' }, { type: 'image', source: {} }, { type: 'text', text: 'b' }])).toBe('a\n[image]\nb');
    expect(textOf(undefined)).toBe('');
    expect(textOf({ ok: 1 })).toBe('{"ok":1}');
  });
});

describe('withFinal', () => {
  const text = (t: string): TranscriptEntry => ({ kind: 'text', text: t });
  const call: TranscriptEntry = { kind: 'tool-call', tool: 'bash', summary: 'ls', input: 'command: ls' };

  it('turns the trailing texts that spell the answer into one final entry', () => {
    expect(withFinal([text('Looking.'), call, text('Done: '), text('fixed.')], 'Done: fixed.')).toEqual([text('Looking.'), call, { kind: 'final', text: 'Done: fixed.' }]);
    expect(withFinal([call, text('aside'), text('The answer')], 'The answer')).toEqual([call, text('aside'), { kind: 'final', text: 'The answer' }]);
  });

  it('adds an answer not found at the end, and leaves a session without one as it is', () => {
    expect(withFinal([call], 'Done.')).toEqual([call, { kind: 'final', text: 'Done.' }]);
    expect(withFinal([call, text('half')], null)).toEqual([call, text('half')]);
  });
});

describe('pushError and withExitCode', () => {
  it('keeps one of two equal errors in a row', () => {
    const entries: TranscriptEntry[] = [];
    pushError(entries, 'boom');
    pushError(entries, 'boom');
    pushError(entries, 'other');
    expect(entries).toEqual([{ kind: 'error', message: 'boom' }, { kind: 'error', message: 'other' }]);
  });

  it('adds a non-zero exit code on a line of its own', () => {
    expect(withExitCode('out\n', 2)).toBe('out\n(exit code 2)');
    expect(withExitCode('out', 2)).toBe('out\n(exit code 2)');
    expect(withExitCode('', 1)).toBe('(exit code 1)');
    expect(withExitCode('out', 0)).toBe('out');
    expect(withExitCode('out', null)).toBe('out');
  });
});
