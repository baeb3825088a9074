import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch, type WorkspaceOptions, type Workspace, createWorkspace } from '../sandbox/index.js';
import type { Task } from '../suite/index.js';

/** The gold patch itself is broken: the task is rejected with this message. */
export class GoldPatchError extends Error {
  override readonly name = 'GoldPatchError';
}

/**
 * A workspace made from the prepared repo with the gold changes of orders 1..goldUpTo applied
 * (0: the starting code), for admission checks. Throws GoldPatchError when a gold patch does
 * not apply.
 */
export async function workspaceWithGold(options: {
  readonly task: Task;
  readonly preparedRepo: string;
  readonly scratchDir: string;
  readonly workspace: WorkspaceOptions;
  readonly goldUpTo: number;
}): Promise<Workspace> {
  const workspace = await createWorkspace(options.preparedRepo, options.scratchDir, options.workspace);
  try {
    for (const order of options.task.orders.filter((o) => o.index <= options.goldUpTo)) {
      const applied = await applyPatch(workspace.dir, await readFile(order.goldPatchPath, 'utf8'));
      if (!applied.ok) throw new GoldPatchError(`the gold patch ${path.relative(options.task.dir, order.goldPatchPath)} does not apply: ${applied.error}`);
    }
    return workspace;
  } catch (error) {
    await workspace.dispose();
    throw error;
  }
}
