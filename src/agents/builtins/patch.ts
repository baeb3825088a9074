import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, type InputIssue } from '../../errors.js';
import { sha256, toInputIssues } from '../../util/index.js';
import type { Agent, HostFile } from '../types.js';
import { applyChangeSession } from './apply-change.js';

const PatchLine = z
  .object({ task: z.string().min(1), order: z.number().int().min(1).default(1), patch: z.string() })
  .strict();

/** A line of a SWE-bench predictions file (`model_patch: null` is SWE-bench's "no patch": an empty change here). */
const Prediction = z.object({ instance_id: z.string().min(1), model_patch: z.string().nullable(), model_name_or_path: z.string().optional() }).passthrough();

/**
 * Grades changes made elsewhere: a JSONL file with one `{"task", "order", "patch"}` per line,
 * or a SWE-bench predictions file (`{"instance_id", "model_name_or_path", "model_patch"}` per
 * line, or a JSON list of them): an instance is the suite's task whose `origin.id` it is
 * (`instances`), else the task named by the instance id in lower case, order 1.
 * Checked like a suite file: each line's fields, a task the suite has (when `suiteTasks` is
 * given), an order that task has, one line per (task, order). The agent works on the tasks the
 * file names (`tasks`); an order of such a task without a line gets an empty change.
 */
export async function createPatchAgent(
  file: string,
  suiteTasks?: ReadonlyMap<string, number>,
  instances?: ReadonlyMap<string, string>,
  /** What is read for `file` (a fleet worker: the copy in the coordinator's signed bundle); default: `file`. */
  hostFile: HostFile = (p) => p,
): Promise<Agent> {
  let text: string;
  try {
    const source = hostFile(file);
    if (source === null) throw new Error('none');
    text = await readFile(source, 'utf8');
  } catch {
    throw new InputError([{ file, field: '', expected: 'a JSONL file of patches', received: 'no such file' }]);
  }
  const patches = new Map<string, string>();
  const lineOf = new Map<string, string>();
  const issues: InputIssue[] = [];
  const rows: [string, string][] = text.trimStart().startsWith('[') ? jsonList(text, file, issues) : text.split('\n').map((line, i) => [`${file}:${i + 1}`, line]);
  rows.forEach(([where, line]) => {
    if (line.trim() === '') return;
    let data: unknown;
    try {
      data = JSON.parse(line);
    } catch {
      issues.push({ file: where, field: '', expected: 'one JSON object per line', received: line.slice(0, 60) });
      return;
    }
    if (typeof data === 'object' && data !== null && 'instance_id' in data) {
      const p = Prediction.safeParse(data, { reportInput: true });
      if (!p.success) {
        issues.push(...toInputIssues(where, p.error, () => ['instance_id', 'model_patch', 'model_name_or_path']));
        return;
      }
      data = { task: instances?.get(p.data.instance_id) ?? p.data.instance_id.toLowerCase(), order: 1, patch: p.data.model_patch ?? '' };
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
      issues.push({ file: where, field: 'task', expected: `one line per task and order (${earlier} already has task ${task}, order ${order})`, received: 'a second line' });
      return;
    }
    lineOf.set(key, where.startsWith(`${file}:`) ? `line ${where.slice(file.length + 1)}` : where);
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

/** The items of a JSON list file as (where, JSON text) pairs, like lines of a JSONL file. */
function jsonList(text: string, file: string, issues: InputIssue[]): [string, string][] {
  try {
    const list: unknown = JSON.parse(text);
    if (Array.isArray(list)) return list.map((item, i) => [`${file}[${i}]`, JSON.stringify(item)]);
  } catch {
    // reported below
  }
  issues.push({ file, field: '', expected: 'a JSON list of predictions or one JSON object per line', received: text.trim().slice(0, 60) });
  return [];
}
