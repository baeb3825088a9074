import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSuite, type TaskAdmission } from '../suite/index.js';
import { taskFromCommit as writeTaskFromCommit, withObserved, type FromCommitOptions, type FromCommitResult } from '../importers/index.js';
import { cwdOf, type Place } from './paths.js';

export interface TaskFromCommitRequest extends Place, Omit<FromCommitOptions, 'repo' | 'suiteDir'> {
  readonly repo: string;
  readonly suite: string;
}

/**
 * `bakeoff task from-commit`: writes a task folder from one commit (see importers'
 * taskFromCommit). Admission is separate: the caller runs `validate({ suite, tasks: [id] })`
 * next (the CLI does), since a task is admitted only by the same checks as any other.
 */
export function taskFromCommit(request: TaskFromCommitRequest): Promise<FromCommitResult> {
  const cwd = cwdOf(request);
  const { repo, suite, ...rest } = request;
  return writeTaskFromCommit({ ...rest, repo: path.resolve(cwd, repo), suiteDir: path.resolve(cwd, suite) });
}

/**
 * Adds to the draft prompt of each of `tasks` what its admission observed on the commit's
 * parent: the fail-to-pass tests and how each failed (importers' commit-prompt.ts). A prompt
 * its owner has rewritten (no draft marker) is left alone. Returns the prompt files rewritten:
 * the suite changed, so `validate` (its `observeDrafts`) validates again (the admissions are
 * kept: no check reads a prompt).
 */
export async function addObservedToDrafts(request: Place & { readonly suite: string; readonly tasks: readonly string[]; readonly admissions: ReadonlyMap<string, TaskAdmission> }): Promise<string[]> {
  const suite = await loadSuite(path.resolve(cwdOf(request), request.suite));
  const rewritten: string[] = [];
  for (const task of suite.tasks.filter((t) => request.tasks.includes(t.id))) {
    const admission = request.admissions.get(task.id);
    if (admission?.admitted !== true) continue;
    for (const order of admission.orders) {
      const file = task.orders.find((o) => o.index === order.order)?.promptPath;
      const prompt = file === undefined ? null : await readFile(file, 'utf8');
      const next = prompt === null ? null : withObserved(prompt, order.observed ?? []);
      if (next === null || file === undefined) continue;
      await writeFile(file, next);
      rewritten.push(file);
    }
  }
  return rewritten;
}
