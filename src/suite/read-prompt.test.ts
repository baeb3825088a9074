import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InputIssue } from '../errors.js';
import { MAX_PROMPT_BYTES, readPrompt } from './read-prompt.js';

async function check(bytes: Buffer): Promise<{ text: string; issues: InputIssue[]; file: string }> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-prompt-')), 'prompt.md');
  await writeFile(file, bytes);
  const issues: InputIssue[] = [];
  return { text: await readPrompt(file, issues), issues, file };
}

describe('readPrompt', () => {
  it('returns UTF-8 text byte for byte, multi-byte characters and all', async () => {
    const text = '  -dash\n@file ünïcödé ✓ 𝄞\n\n';
    const r = await check(Buffer.from(text));
    expect(r.issues).toEqual([]);
    expect(r.text).toBe(text);
  });

  const cases: [string, Buffer, string][] = [
    ['a Latin-1 byte', Buffer.concat([Buffer.from('Fix the caf'), Buffer.from([0xe9]), Buffer.from(' bug\n')]), 'a byte that is not UTF-8 (0xe9) at offset 11, line 1'],
    ['a lone continuation byte on line 3', Buffer.concat([Buffer.from('a\nb\nü'), Buffer.from([0x80]), Buffer.from('\n')]), 'a byte that is not UTF-8 (0x80) at offset 6, line 3'],
    ['a truncated character at the end', Buffer.concat([Buffer.from('ok '), Buffer.from([0xe2, 0x9c])]), 'a byte that is not UTF-8 (0xe2) at offset 3, line 1'],
    ['a NUL byte', Buffer.from('one\ntwo\0three\n'), 'a NUL byte at offset 7, line 2'],
    ['a blank file', Buffer.from(' \n\t\n'), 'an empty file'],
  ];
  for (const [what, bytes, received] of cases) {
    it(`names ${what} with where it is`, async () => {
      const r = await check(bytes);
      expect(r.issues).toEqual([expect.objectContaining({ file: r.file, received })]);
    });
  }

  it(`refuses a prompt over ${MAX_PROMPT_BYTES} bytes, and takes one of exactly that size`, async () => {
    const big = await check(Buffer.alloc(5 * 1024 * 1024, 'a'));
    expect(big.issues).toEqual([{ file: big.file, field: '', expected: 'a prompt of at most 98304 bytes (96 KiB)', received: '5242880 bytes' }]);
    const limit = await check(Buffer.alloc(MAX_PROMPT_BYTES, 'a'));
    expect(limit.issues).toEqual([]);
  });
});
