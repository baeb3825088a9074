import { describe, expect, it } from 'vitest';
import { createTapeFileNamer, type TapeFile } from './tape-files.js';

const file = (name: string, titles: string[], strings: string[] = []): TapeFile => ({ file: name, titles, strings: new Set([...titles, ...strings]) });

describe('createTapeFileNamer', () => {
  it("names each heading's file in the order tape printed them: repeats across files, nested titles, tripwires, titles built at run time", () => {
    const files = [file('test/a.js', ['-', 'shared'], ['nested in a']), file('test/b.js', ['--- option value', 'shared', 'shared'], ['wire in b'])];
    const name = createTapeFileNamer(files);
    const headings = ['-', 'nested in a', 'shared', 'built at run time', '--- option value', 'wire in b', 'shared', 'shared'];
    expect(headings.map(name)).toEqual(['test/a.js', 'test/a.js', 'test/a.js', 'test/a.js', 'test/b.js', 'test/b.js', 'test/b.js', 'test/b.js']);
  });

  it('finds a file the command ran earlier than path order, and leaves a name no file spells without one until a match', () => {
    const name = createTapeFileNamer([file('test/a.js', ['in a']), file('test/b.js', ['in b'])]);
    expect(['nowhere', 'in b', 'in a', 'after a'].map(name)).toEqual([null, 'test/b.js', 'test/a.js', 'test/a.js']);
  });

  it('gives every name the one tape file there is, and none when there is none', () => {
    expect(createTapeFileNamer([file('test.js', [])])('anything')).toBe('test.js');
    expect(createTapeFileNamer([])('anything')).toBeNull();
  });
});
