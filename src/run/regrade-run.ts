import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Isolation } from '../sandbox/isolation.js';
import type { TaskLock } from '../suite/lock.js';
import type { Order, Task } from '../suite/types.js';
import type { Outcome, RunRecord } from '../types.js';
import type { OrderPoints, Regrade } from './compare-verdicts.js';
import type { GeneratedSet } from './generate-checks.js';
import { gradeOrder } from './grade-order.js';
import { agentsOrOurs } from './agents-or-ours.js';
import { orderGrading } from './order-grading.js';
import { worstOutcome } from './worst-outcome.js';

export interface RegradeRunOptions {
  readonly run: RunRecord;
  readonly task: Task;
  readonly lock: Extract<TaskLock, { admitted: true }>;
  /** The run's stored artifacts (`<results>/runs/<run-id>`); only read. */
  readonly artifactsDir: string;
  readonly preparedRepo: string;
  readonly isolation: Isolation;
  readonly env: Readonly<Record<string, string>>;
  readonly testTimeoutMs: number;
  /** controls.outputMb in bytes. */
  readonly outputBytes: number;
  readonly checksFor: (order: Order) => Promise<GeneratedSet>;
  /** Empty folder for workspaces and grader output; the caller deletes it. */
  readonly scratchDir: string;
}

/**
 * Grades a stored run again from its stored changes, exactly as the run was graded
 * (`gradeOrder`: a clean workspace from the prepared repo plus `order-<n>/change.patch`, hidden
 * files over it, tests in the sandbox; or the generated checks), folding the orders' results
 * the way `runTask` does. Orders run in sequence until one has no stored change (the run
 * stopped before grading it). Grader output goes to the scratch folder, never the results.
 */
export async function regradeRun(options: RegradeRunOptions): Promise<Regrade> {
  const { task, run } = options;
  let outcome: Outcome = { kind: 'solved' };
  const orders: OrderPoints[] = [];
  for (const order of task.orders) {
    const patch = await readStoredPatch(path.join(options.artifactsDir, `order-${order.index}`, 'change.patch'));
    if (patch === null) break;
    const grading = await orderGrading({ task, lock: options.lock, order, checksFor: options.checksFor, seed: run.seed, level: run.level });
    if ('void' in grading) {
      outcome = worstOutcome(outcome, grading.void);
      break;
    }
    const scratchDir = path.join(options.scratchDir, `grade-${order.index}`);
    const gradeWith = (p: string, dir: string) =>
      gradeOrder({
        isolation: options.isolation,
        preparedRepo: options.preparedRepo,
        patch: p,
        task,
        grading,
        scratchDir: dir,
        outDir: path.join(dir, 'out'),
        env: options.env,
        timeoutMs: options.testTimeoutMs,
        outputBytes: options.outputBytes,
      });
    // the same rule as a run: a grading that breaks on this change but not on the unchanged repo is the agent's
    const graded = await agentsOrOurs(() => gradeWith(patch, scratchDir), () => gradeWith('', `${scratchDir}-control`));
    if ('failure' in graded) {
      outcome = worstOutcome(outcome, { kind: 'failed', reason: 'grading-error', detail: `order ${order.index}: grading this change failed: ${graded.failure}` });
      break;
    }
    const grade = graded.value;
    if (!grade.applied) {
      const maxPoints = grading.kind === 'checks' ? grading.generated.checks.length : grading.expected.failToPass.length + grading.expected.passToPass.length;
      orders.push({ order: order.index, points: 0, maxPoints });
      outcome = worstOutcome(outcome, { kind: 'failed', reason: 'patch-did-not-apply', detail: grade.error.slice(0, 500) });
      continue;
    }
    orders.push({ order: order.index, points: grade.points, maxPoints: grade.maxPoints });
    if (grade.failure) outcome = worstOutcome(outcome, { kind: 'failed', reason: grade.failure.reason, detail: `order ${order.index}: ${grade.failure.detail}` });
  }
  return { outcome, orders };
}

/** The stored patch, or null when the run has none for this order. */
async function readStoredPatch(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
