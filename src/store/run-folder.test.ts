import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { orderDir, orderFile, readRefusal, writeRefusal } from './run-folder.js';

async function orderFolder(): Promise<string> {
  const dir = orderDir(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-run-folder-')), 1);
  await mkdir(dir, { recursive: true });
  return dir;
}

describe('a stored refusal', () => {
  it('is written as change-refused.json and read back as the same data', async () => {
    const dir = await orderFolder();
    const refusal = { reason: 'unsupported-file', paths: ['vendor/lib', 'a\nb'], message: 'the change holds a nested git repository (vendor/lib)' };
    await writeRefusal(dir, refusal);
    expect(path.basename(orderFile(dir, 'refusal'))).toBe('change-refused.json');
    expect(JSON.parse(await readFile(orderFile(dir, 'refusal'), 'utf8'))).toEqual({ schemaVersion: 1, ...refusal });
    expect(await readRefusal(dir)).toEqual(refusal);
  });

  it('is read from change-refused.txt of a folder written before the JSON form (reason, message, no paths)', async () => {
    const dir = await orderFolder();
    await writeFile(orderFile(dir, 'oldRefusal'), 'change-too-large: the change holds 9 bytes: a, b\nc\n');
    expect(await readRefusal(dir)).toEqual({ reason: 'change-too-large', paths: [], message: 'the change holds 9 bytes: a, b\nc' });
  });

  it('is null when the order has none, or the old text is no refusal', async () => {
    const dir = await orderFolder();
    expect(await readRefusal(dir)).toBeNull();
    await writeFile(orderFile(dir, 'oldRefusal'), 'no colon here\n');
    expect(await readRefusal(dir)).toBeNull();
  });

  it('refuses a damaged change-refused.json naming file, field, expected and found', async () => {
    const dir = await orderFolder();
    const file = orderFile(dir, 'refusal');
    await writeFile(file, JSON.stringify({ schemaVersion: 1, reason: 'unsupported-file', paths: 'x', message: 'm' }));
    const error = await readRefusal(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(`${file}: paths: expected an array of strings, received "x"`);
    await writeFile(file, '{');
    await expect(readRefusal(dir)).rejects.toThrow(`${file}: (file): expected JSON, received`);
  });
});
