import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InputError, type InputIssue } from '../errors.js';
import { toInputIssues } from '../util/index.js';

/*
 * SWE-bench instances, read from either
 *
 *   instances.jsonl                     one instance record per line (the HF datasets' rows)
 *   <v5 task repo>/sweb.yaml            and tasks/<instance_id>/{task.yaml, tests.json,
 *   <v5 task folder>/task.yaml            problem_statement.md, gold.patch, test.patch}
 *
 * FAIL_TO_PASS / PASS_TO_PASS arrive as JSON-encoded strings (the HF datasets) or as lists.
 */

const TestList = z.preprocess(
  (value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.array(z.string()),
);

export const SwebenchInstance = z
  .object({
    instance_id: z.string().min(1),
    repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'owner/name'),
    base_commit: z.string().regex(/^[0-9a-f]{7,40}$/, 'a commit sha'),
    patch: z.string().min(1),
    test_patch: z.string().min(1),
    problem_statement: z.string().min(1),
    FAIL_TO_PASS: TestList,
    PASS_TO_PASS: TestList.default([]),
    /** v5: a key into the harness's PARSER_REGISTRY (`pytest`, `django`, …). */
    log_parser: z.string().min(1).optional(),
    version: z.union([z.string(), z.number()]).optional(),
  })
  .passthrough();
export type SwebenchInstance = z.infer<typeof SwebenchInstance>;

/** One instance and where it was read (`file:line` or the task folder), for messages. */
export interface ReadInstance {
  readonly where: string;
  readonly instance: SwebenchInstance;
}

/** Every instance of a JSONL file, a v5 task repo (sweb.yaml) or one v5 task folder; InputError listing every bad field. */
export async function readSwebenchInstances(source: string): Promise<ReadInstance[]> {
  const info = await stat(source).catch(() => null);
  if (!info) throw new InputError([{ file: source, field: '', expected: 'a SWE-bench instances file (.jsonl) or a v5 task folder', received: 'no such file or folder' }]);
  const issues: InputIssue[] = [];
  const out: ReadInstance[] = [];
  const take = (where: string, data: unknown): void => {
    const parsed = SwebenchInstance.safeParse(data, { reportInput: true });
    if (parsed.success) out.push({ where, instance: parsed.data });
    else issues.push(...toInputIssues(where, parsed.error, () => Object.keys(SwebenchInstance.shape)));
  };
  if (info.isFile()) {
    const text = await readFile(source, 'utf8');
    const trimmed = text.trimStart();
    const rows: [string, unknown][] = [];
    if (trimmed.startsWith('[')) {
      const list = parseJson(text, source, issues);
      if (Array.isArray(list)) list.forEach((row, i) => rows.push([`${source}[${i}]`, row]));
    } else {
      text.split('\n').forEach((line, i) => {
        if (line.trim() !== '') rows.push([`${source}:${i + 1}`, parseJson(line, `${source}:${i + 1}`, issues)]);
      });
    }
    for (const [where, row] of rows) if (row !== undefined) take(where, row);
  } else {
    const folders = (await stat(path.join(source, 'task.yaml')).catch(() => null)) ? [source] : await v5Tasks(source);
    for (const dir of folders) take(dir, await readV5Task(dir, issues));
  }
  if (issues.length > 0) throw new InputError(issues);
  if (out.length === 0) throw new InputError([{ file: source, field: '', expected: 'at least one SWE-bench instance', received: 'none' }]);
  return out;
}

async function v5Tasks(root: string): Promise<string[]> {
  if (!(await stat(path.join(root, 'sweb.yaml')).catch(() => null))) {
    throw new InputError([{ file: root, field: '', expected: 'a v5 task repo (sweb.yaml and tasks/<instance_id>/) or a task folder (task.yaml)', received: 'a folder with neither' }]);
  }
  const tasks = path.join(root, 'tasks');
  const names = (await readdir(tasks).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  return names.map((n) => path.join(tasks, n));
}

/** A v5 task folder as one instance record: task.yaml's keys plus the files beside it. */
async function readV5Task(dir: string, issues: InputIssue[]): Promise<unknown> {
  const read = async (name: string): Promise<string | undefined> => readFile(path.join(dir, name), 'utf8').catch(() => undefined);
  const yamlText = await read('task.yaml');
  let meta: unknown;
  try {
    meta = parseYaml(yamlText ?? '');
  } catch (error) {
    issues.push({ file: path.join(dir, 'task.yaml'), field: '', expected: 'YAML', received: String((error as Error).message).split('\n')[0]! });
    return undefined;
  }
  const testsText = await read('tests.json');
  const tests = testsText === undefined ? {} : parseJson(testsText, path.join(dir, 'tests.json'), issues);
  return {
    ...(typeof meta === 'object' && meta !== null ? meta : {}),
    ...(typeof tests === 'object' && tests !== null ? tests : {}),
    problem_statement: await read('problem_statement.md'),
    patch: await read('gold.patch'),
    test_patch: await read('test.patch'),
  };
}

function parseJson(text: string, where: string, issues: InputIssue[]): unknown {
  try {
    return JSON.parse(text);
  } catch {
    issues.push({ file: where, field: '', expected: 'JSON', received: text.trim().slice(0, 60) });
    return undefined;
  }
}
