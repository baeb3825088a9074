import path from 'node:path';
import { taskFromCommit as writeTaskFromCommit, type FromCommitOptions, type FromCommitResult } from '../importers/index.js';
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
