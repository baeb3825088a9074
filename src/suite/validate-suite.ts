import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { baseEnv } from '../run/base-env.js';
import { runPool } from '../run/pool.js';
import { prepareTask } from '../run/prepare-task.js';
import type { Isolation } from '../sandbox/isolation.js';
import { disposeScratch, scratchRoot } from '../sandbox/workspace.js';
import { admitChecksTask } from './admit-checks-task.js';
import { admitTask, type TaskAdmission } from './admit-task.js';
import { GoldPatchError } from './workspace-with-gold.js';
import { writeLock, type SuiteLock } from './lock.js';
import { renderTasksMd } from './render-tasks-md.js';
import type { Suite } from './types.js';

export interface ValidateOptions {
  readonly isolation: Isolation;
  readonly cacheDir: string;
  readonly concurrency: number;
  readonly onTaskEnd?: (task: string, admission: TaskAdmission) => void;
}

export interface ValidateResult {
  readonly suite: Suite;
  readonly admissions: ReadonlyMap<string, TaskAdmission>;
  readonly lockPath: string;
  readonly tasksMdPath: string;
}

/** Runs the admission checks on every task, writes TASKS.md and the lock file. */
export async function validateSuite(suite: Suite, options: ValidateOptions): Promise<ValidateResult> {
  const env = baseEnv();
  const scratch = await scratchRoot(`validate ${process.pid} ${Date.now()}`);
  const admissions = new Map<string, TaskAdmission>();
  try {
    await runPool(suite.tasks, options.concurrency, async (task) => {
      const admission = await admitOne(suite, task, { ...options, env, scratch });
      admissions.set(task.id, admission);
      options.onTaskEnd?.(task.id, admission);
    });
  } finally {
    await disposeScratch(scratch);
  }
  const lock: SuiteLock = {
    schemaVersion: 1,
    suite: { id: suite.id, hash: suite.hash },
    tasks: Object.fromEntries(
      suite.tasks.map((t) => {
        const a = admissions.get(t.id)!;
        return [t.id, a.admitted ? { admitted: true as const, orders: a.orders.map((o) => ({ order: o.order, failToPass: [...o.failToPass], passToPass: [...o.passToPass], ...(o.checks ? { checks: { ...o.checks } } : {}) })) } : { admitted: false as const, reason: a.reason }];
      }),
    ),
  };
  const lockPath = await writeLock(suite.dir, lock);
  const tasksMdPath = path.join(suite.dir, 'TASKS.md');
  await writeFile(tasksMdPath, renderTasksMd(suite, admissions));
  return { suite, admissions, lockPath, tasksMdPath };
}

async function admitOne(
  suite: Suite,
  task: Suite['tasks'][number],
  options: ValidateOptions & { env: Record<string, string>; scratch: string },
): Promise<TaskAdmission> {
  const prepared = await prepareTask({ task, controls: suite.controls, isolation: options.isolation, env: options.env, cacheDir: options.cacheDir });
  if (!prepared.ok) return { admitted: false, reason: prepared.reason };
  const scratchDir = path.join(options.scratch, task.id);
  try {
    const admitOptions = {
      task,
      preparedRepo: prepared.repo,
      isolation: options.isolation,
      env: options.env,
      testTimeoutMs: suite.controls.testWallClockSec * 1000,
      outputBytes: suite.controls.outputMb * 1024 * 1024,
      scratchDir,
    };
    return task.manifest.grading === 'checks'
      ? await admitChecksTask({ ...admitOptions, controls: suite.controls })
      : await admitTask(admitOptions);
  } catch (error) {
    if (error instanceof GoldPatchError) return { admitted: false, reason: error.message };
    throw error;
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}
