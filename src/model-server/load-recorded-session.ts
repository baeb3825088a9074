import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { InputError, UserError } from '../errors.js';
import { toInputIssues } from '../util/index.js';
import type { ScriptReply } from './types.js';

const Recorded = z.object({
  status: z.number().int().min(100).max(599),
  contentType: z.string().min(1),
  body: z.string(),
});

/** Answers generation requests with a recorded session's responses, in order. */
export interface RecordedSession {
  /** The next recorded answer for this session token (or the global sequence when null). */
  reply(token: string | null): ScriptReply;
}

/**
 * Loads a recorded session: the `modelResponses` file (store/run-folder.ts) bakeoff keeps per order of a model
 * agent's run (one `{seq, format, path, status, contentType, body}` per model answer, as the
 * CLI got it). Replayed verbatim and in order — every generation request, tool-less ones
 * included, takes the next answer — so a deterministic CLI given the same prompt and workspace
 * makes the same requests and gets the same answers, without spending a token. Past the last
 * answer, a session gets a short final text.
 */
export async function loadRecordedSession(file: string): Promise<RecordedSession> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(`${file}: cannot read the recorded session`, { cause: error });
  }
  const answers = text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, n }) => {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch (error) {
        throw new InputError([{ file, field: `line ${n}`, expected: 'a JSON object per line', received: (error as Error).message }]);
      }
      const parsed = Recorded.safeParse(json, { reportInput: true });
      if (!parsed.success) {
        throw new InputError(toInputIssues(file, parsed.error).map((issue) => ({ ...issue, field: [`line ${n}`, issue.field].filter(Boolean).join('.') })));
      }
      return parsed.data;
    });
  if (answers.length === 0) throw new InputError([{ file, field: '', expected: 'at least one recorded answer', received: 'an empty file' }]);
  const used = new Map<string, number>();
  return {
    reply(token) {
      const key = token ?? '';
      const n = used.get(key) ?? 0;
      used.set(key, n + 1);
      const next = answers[n];
      return next === undefined
        ? { kind: 'text', text: 'Done: the recorded session has no more answers.' }
        : { kind: 'raw', status: next.status, contentType: next.contentType, body: next.body };
    },
  };
}
