import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, type InputIssue } from '../../errors.js';
import { sha256, toInputIssues } from '../../util/index.js';
import type { Agent } from '../types.js';
import { applyChangeSession } from './apply-change.js';

const PatchLine = z
  .object({ task: z.string().min(1), order: z.number().int().min(1).default(1), patch: z.string() })
  .strict();

/**
 * Grades changes made elsewhere: a JSONL file with one `{"task", "order", "patch"}` per line.
 * Checked like a suite file: each line's fields, a task the suite has (when `suiteTasks` is
 * given), an order that task has, one line per (task, order). The agent works on the tasks the
 * file names (`tasks`); an order of such a task without a line gets an empty change.
 */
export async function createPatchAgent(file: string, suiteTasks?: ReadonlyMap<string, number>): Promise<Agent> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new InputError([{ file, field: '', expected: 'a JSONL file of patches', received: 'no such file' }]);
  }
  const patches = new Map<string, string>();
  const lineOf = new Map<string, number>();
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
    if (!parsed.success) {
      issues.push(...toInputIssues(where, parsed.error, () => ['task', 'order', 'patch']));
      return;
    }
    const { task, order } = parsed.data;
    const orders = suiteTasks?.get(task);
    if (suiteTasks && orders === undefined) {
      issues.push({ file: where, field: 'task', expected: `a task of the suite (${[...suiteTasks.keys()].slice(0, 5).join(', ')}${suiteTasks.size > 5 ? ', …' : ''})`, received: JSON.stringify(task) });
      return;
    }
    if (orders !== undefined && order > orders) {
      issues.push({ file: where, field: 'order', expected: `an order of task ${task} (1${orders > 1 ? `–${orders}` : ''})`, received: String(order) });
      return;
    }
    const key = `${task}\0${order}`;
    const earlier = lineOf.get(key);
    if (earlier !== undefined) {
      issues.push({ file: where, field: 'task', expected: `one line per task and order (line ${earlier} already has task ${task}, order ${order})`, received: 'a second line' });
      return;
    }
    lineOf.set(key, i + 1);
    patches.set(key, parsed.data.patch);
  });
  if (issues.length > 0) throw new InputError(issues);
  return {
    info: { id: `patch:${path.basename(file)}`, harness: 'patch', version: null, model: null, effort: null },
    digest: sha256(`patch:${text}`),
    tasks: new Set([...patches.keys()].map((k) => k.split('\0')[0]!)),
    runSession: (ctx) => applyChangeSession(ctx.workspace, patches.get(`${ctx.taskId}\0${ctx.order}`) ?? '', ctx.outputPath),
  };
}
