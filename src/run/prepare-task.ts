import { type Isolation, prepareRepo, type PrepareResult, type SetupProgress } from '../sandbox/index.js';
import type { Controls, Task } from '../suite/index.js';

/**
 * A task's prepared repo (its repo after the setup command, owned by the sandbox user),
 * made once per machine and task version — the same for validate, run and verify.
 */
export function prepareTask(options: {
  readonly task: Task;
  readonly controls: Controls;
  readonly isolation: Isolation;
  readonly env: Readonly<Record<string, string>>;
  readonly cacheDir: string;
  /** About once a second while the task's setup command runs. */
  readonly onProgress?: (progress: SetupProgress) => void;
}): Promise<PrepareResult> {
  const { task } = options;
  return prepareRepo({
    taskId: task.id,
    taskHash: task.repoHash,
    repoDir: task.repoDir,
    setup: task.manifest.setup,
    cacheDir: options.cacheDir,
    sandbox: options.isolation.setup,
    owner: options.isolation.workspace.owner,
    env: options.env,
    timeoutMs: options.controls.setupWallClockSec * 1000,
    idleTimeoutMs: options.controls.setupIdleSec * 1000,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}
