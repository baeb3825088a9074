import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { loadRecordedSession } from './load-recorded-session.js';

async function file(text: string): Promise<string> {
  const f = path.join(await mkdtemp(path.join(os.tmpdir(), 'recorded-')), 'model-responses.jsonl');
  await writeFile(f, text);
  return f;
}

const line = (body: string, status = 200) => JSON.stringify({ seq: 1, format: 'anthropic-messages', path: '/v1/messages', status, contentType: 'text/event-stream', body });

describe('a recorded session', () => {
  it('gives the recorded answers verbatim, in order, per session, then a short final text', async () => {
    const session = await loadRecordedSession(await file(`${line('first')}\n${line('second', 529)}\n`));
    expect(session.reply('a')).toEqual({ kind: 'raw', status: 200, contentType: 'text/event-stream', body: 'first' });
    expect(session.reply('b')).toMatchObject({ kind: 'raw', body: 'first' });
    expect(session.reply('a')).toMatchObject({ kind: 'raw', status: 529, body: 'second' });
    expect(session.reply('a')).toMatchObject({ kind: 'text' });
  });

  it('names the line and field of a broken record', async () => {
    const broken = await file(`${line('ok')}\n{"status": 200, "body": "x"}\n`);
    await expect(loadRecordedSession(broken)).rejects.toThrow(InputError);
    await expect(loadRecordedSession(broken)).rejects.toThrow(/line 2\.contentType/);
    await expect(loadRecordedSession(await file('not json\n'))).rejects.toThrow(/line 1: expected a JSON object per line/);
  });
});
