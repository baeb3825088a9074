import { UserError } from '../errors.js';
import { nearest } from '../util/index.js';

/** Which of a suite's admitted tasks a bake runs: `--task ID…` and `--limit N`. */
export interface TaskSelection {
  /** These tasks only (ids of the suite's tasks). */
  readonly tasks?: readonly string[];
  /** At most this many tasks: the first in suite order (after `tasks`). */
  readonly limit?: number;
}

/**
 * The admitted tasks a bake with `selection` plans, in suite order. An id that is not a task of
 * the suite is a user error (with the nearest id); one that the lock does not admit is left
 * out and returned in `rejected`. Without a selection, every admitted task. Pure.
 *
 * @param suiteTasks every task id of the suite, in suite order
 * @param admitted the ids the lock admits
 */
export function selectTasks(suiteTasks: readonly string[], admitted: ReadonlySet<string>, selection: TaskSelection = {}): { tasks: string[]; rejected: string[] } {
  for (const id of selection.tasks ?? []) {
    if (!suiteTasks.includes(id)) {
      const near = nearest(id, suiteTasks);
      throw new UserError(`--task: expected a task id of the suite (${suiteTasks.join(', ')}), received ${JSON.stringify(id)}${near ? ` (did you mean ${near}?)` : ''}`);
    }
  }
  if (selection.limit !== undefined && !(Number.isInteger(selection.limit) && selection.limit >= 1)) {
    throw new UserError(`--limit: expected a whole number >= 1, received ${JSON.stringify(selection.limit)}`);
  }
  const named = selection.tasks && selection.tasks.length > 0 ? new Set(selection.tasks) : null;
  const wanted = suiteTasks.filter((id) => named === null || named.has(id));
  const runnable = wanted.filter((id) => admitted.has(id));
  return {
    tasks: selection.limit === undefined ? runnable : runnable.slice(0, selection.limit),
    rejected: named === null ? [] : wanted.filter((id) => !admitted.has(id)),
  };
}
