import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, type InputIssue } from '../../errors.js';
import { sha256 } from '../../util/hash.js';
import { toInputIssues } from '../../util/zod-issues.js';
import type { Agent } from '../types.js';
import { applyChangeSession } from './apply-change.js';

const PatchLine = z
  .object({ task: z.string().min(1), order: z.number().int().min(1).default(1), patch: z.string() })
  .strict();

/**
 * Grades changes made elsewhere: a JSONL file with one `{"task", "order", "patch"}` per line.
 * A (task, order) without a line gets an empty change.
 */
export async function createPatchAgent(file: string): Promise<Agent> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new InputError([{ file, field: '', expected: 'a JSONL file of patches', received: 'no such file' }]);
  }
  const patches = new Map<string, string>();
  const issues: InputIssue[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}`;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      issues.push({ file: where, field: '', expected: 'one JSON object per line', received: line.slice(0, 60) });
      return;
    }
    const parsed = PatchLine.safeParse(data, { reportInput: true });
    if (!parsed.success) issues.push(...toInputIssues(where, parsed.error, () => ['task', 'order', 'patch']));
    else patches.set(`${parsed.data.task}\0${parsed.data.order}`, parsed.data.patch);
  });
  if (issues.length > 0) throw new InputError(issues);
  return {
    info: { id: `patch:${path.basename(file)}`, harness: 'patch', version: null, model: null, effort: null },
    digest: sha256(`patch:${text}`),
    runSession: (ctx) => applyChangeSession(ctx.workspace, patches.get(`${ctx.taskId}\0${ctx.order}`) ?? '', ctx.outputPath),
  };
}
