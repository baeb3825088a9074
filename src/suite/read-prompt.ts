import { readFile } from 'node:fs/promises';
import type { InputIssue } from '../errors.js';

/**
 * The largest prompt a task may have: 96 KiB. Every CLI reads it from stdin (a command agent from
 * a file), so nothing in bakeoff caps it lower; the limit keeps a prompt well inside every model's
 * context and inside one argument or variable a command agent may pass it on in (Linux caps one
 * at 128 KiB, MAX_ARG_STRLEN). Real problem statements are far smaller (SWE-bench's are a few KB).
 */
export const MAX_PROMPT_BYTES = 96 * 1024;

/**
 * A prompt file's text, checked: UTF-8 (what an agent sees must be the bytes the author wrote,
 * never U+FFFD in their place), no NUL byte (no command line or terminal carries one), at most
 * {@link MAX_PROMPT_BYTES}, not blank. Problems go to `issues`; the text is returned anyway.
 */
export async function readPrompt(file: string, issues: InputIssue[]): Promise<string> {
  const bytes = await readFile(file);
  if (bytes.length > MAX_PROMPT_BYTES) {
    issues.push({ file, field: '', expected: `a prompt of at most ${MAX_PROMPT_BYTES} bytes (96 KiB)`, received: `${bytes.length} bytes` });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    issues.push({ file, field: '', expected: 'UTF-8 text', received: `a byte that is not UTF-8 (0x${bytes[at]!.toString(16).padStart(2, '0')}) at offset ${at}, line ${lineAt(bytes, at)}` });
    return bytes.toString('utf8');
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) issues.push({ file, field: '', expected: 'text without NUL bytes', received: `a NUL byte at offset ${nul}, line ${lineAt(bytes, nul)}` });
  if (text.trim() === '') issues.push({ file, field: '', expected: 'the problem statement', received: 'an empty file' });
  return text;
}

/** Offset of the first byte of the first sequence that is not UTF-8 (RFC 3629: no overlongs, surrogates or code points past U+10FFFF). */
function firstInvalidUtf8(bytes: Buffer): number {
  const cont = (i: number, lo = 0x80, hi = 0xbf): boolean => i < bytes.length && bytes[i]! >= lo && bytes[i]! <= hi;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let n = 0;
    if (b < 0x80) n = 1;
    else if (b >= 0xc2 && b <= 0xdf) n = cont(i + 1) ? 2 : 0;
    else if (b >= 0xe0 && b <= 0xef) n = cont(i + 1, b === 0xe0 ? 0xa0 : 0x80, b === 0xed ? 0x9f : 0xbf) && cont(i + 2) ? 3 : 0;
    else if (b >= 0xf0 && b <= 0xf4) n = cont(i + 1, b === 0xf0 ? 0x90 : 0x80, b === 0xf4 ? 0x8f : 0xbf) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    if (n === 0) return i;
    i += n;
  }
  return bytes.length - 1;
}

function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
