import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Isolation } from '../sandbox/index.js';
import type { TaskLock, Order, Task } from '../suite/index.js';
import type { FailReason, Outcome, RunRecord } from '../types.js';
import type { OrderPoints, Regrade } from './compare-verdicts.js';
import { type GeneratedSet, gradeOrder, agentsOrOurs, orderGrading, worstOutcome } from '../run/index.js';

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
    if (patch === null) {
      // a change refused before it became a patch (too large, a patch that did not apply in the
      // session): nothing to re-grade, the stored reason stands for this order
      const refused = await readRefusal(path.join(options.artifactsDir, `order-${order.index}`, 'change-refused.txt'));
      if (refused) outcome = worstOutcome(outcome, { kind: 'failed', reason: refused, detail: `order ${order.index}: refused before grading (change-refused.txt)` });
      break;
    }
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

const REFUSALS: readonly FailReason[] = ['change-too-large', 'unsupported-file', 'grading-error', 'patch-did-not-apply'];

/** The fail reason a `change-refused.txt` starts with, or null when there is none. */
async function readRefusal(file: string): Promise<FailReason | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  const reason = text?.split(':')[0] ?? '';
  return (REFUSALS as readonly string[]).includes(reason) ? (reason as FailReason) : null;
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
