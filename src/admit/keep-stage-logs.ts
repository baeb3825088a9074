import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { StageLog } from './admit-task.js';

/**
 * Copies a rejected task's test output logs out of the scratch folder (deleted when validate
 * ends) to `<cacheDir>/validate-logs/<suite id>/<task id>/<stage>.log`, replacing the logs of an
 * earlier validate of that task (removed also when the task is now admitted). Returns the kept paths.
 *
 *   <cacheDir>/validate-logs/<suite id>/<task id>/
 *     baseline.log, baseline-2.log, gold-1.log, …   (order-2-baseline.log in a task of several orders)
 */
export async function keepStageLogs(options: { cacheDir: string; suiteId: string; taskId: string; logs: readonly StageLog[] }): Promise<string[]> {
  const dir = path.join(options.cacheDir, 'validate-logs', options.suiteId, options.taskId);
  await rm(dir, { recursive: true, force: true });
  const kept: string[] = [];
  if (options.logs.length > 0) await mkdir(dir, { recursive: true });
  for (const log of options.logs) {
    const target = path.join(dir, `${log.stage.replaceAll(' ', '-')}.log`);
    await copyFile(log.path, target).then(() => kept.push(target), () => undefined);
  }
  return kept;
}
