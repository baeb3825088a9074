import { describe, expect, it } from 'vitest';
import { addFilePatch, canAddFile, canUpdateFile, deleteFilePatch, updateFilePatch } from './apply-patch-text.js';
import { minimalEdit } from './minimal-edit.js';

describe('apply_patch texts', () => {
  it('writes an Update File hunk with context, and End of File when it reaches the end', () => {
    const edit = minimalEdit('a\nb\nc\n', 'a\nb\nC\n')!;
    expect(updateFilePatch('src/x.js', edit)).toBe('*** Begin Patch\n*** Update File: src/x.js\n@@\n-c\n+C\n*** End of File\n*** End Patch\n');
  });

  it('writes Add File and Delete File', () => {
    expect(addFilePatch('n.txt', 'one\n\ntwo\n')).toBe('*** Begin Patch\n*** Add File: n.txt\n+one\n+\n+two\n*** End Patch\n');
    expect(addFilePatch('empty.txt', '')).toBe('*** Begin Patch\n*** Add File: empty.txt\n*** End Patch\n');
    expect(deleteFilePatch('old.txt')).toBe('*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n');
  });

  it('knows what apply_patch cannot write: no final newline, CR in added files, mixed endings', () => {
    expect(canAddFile('x')).toBe(false);
    expect(canAddFile('x\r\n')).toBe(false);
    expect(canAddFile('')).toBe(true);
    expect(canUpdateFile('a\nb', 'a\nc')).toBe(false);
    expect(canUpdateFile('a\nb', 'a\nc\n')).toBe(true);
    expect(canUpdateFile('a\r\nb\r\n', 'a\r\nc\r\n')).toBe(true);
    expect(canUpdateFile('a\r\nb\n', 'a\r\nc\n')).toBe(false);
  });
});

// The same texts applied by the real Codex CLI: test/model-server/apply-patch-codex.test.ts (the agents tier).
