import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Order } from '../suite/index.js';
import type { RunRecord } from '../types.js';
import type { Regrade } from './compare-verdicts.js';
import { describeTestTimeout, type TestAttempt } from '../grade/index.js';
import { describeStepCpu } from '../sandbox/index.js';
import { orderDir, orderFile, readRefusal } from '../store/index.js';
import {
  type OrderEvidence,
  type OutcomeRules,
  type RunTaskOptions,
  agentsOrOurs,
  decideOutcome,
  gradeEvidence,
  gradeOrder,
  judgeOrder,
  NO_SESSION_FINDINGS,
  orderGrading,
  refusalEvidence,
} from '../run/index.js';

/** What a run was graded with (as `runTask` gets it), and the stored run. */
export interface RegradeRunOptions extends Pick<RunTaskOptions, 'task' | 'lock' | 'preparedRepo' | 'isolation' | 'env' | 'checksFor'> {
  readonly run: RunRecord;
  /** The suite's outcome rules, as the bake judged with them. */
  readonly rules: OutcomeRules;
  /** The run's stored artifacts (`<results>/runs/<run-id>`); only read. */
  readonly artifactsDir: string;
  readonly testTimeoutMs: number;
  /** controls.outputMb in bytes. */
  readonly outputBytes: number;
  /** Empty folder for workspaces and grader output; the caller deletes it. */
  readonly scratchDir: string;
}

/**
 * Grades a stored run again from its stored changes, exactly as the run was graded
 * (`gradeOrder`: a clean workspace from the prepared repo plus the order's stored change, hidden
 * files over it, tests in the sandbox; or the generated checks), and judges each order's
 * evidence with the bake's own rules (`judgeOrder`, `decideOutcome`): the same stages, the same
 * outcomes and texts. Sessions are not run again (their stage finds nothing). An order without a
 * stored change stands for its stored refusal (`readRefusal`), judged as the bake judged it, or, without
 * one, ends the re-grade (the run stopped before it). Grader output goes to the scratch folder,
 * never the results.
 */
export async function regradeRun(options: RegradeRunOptions): Promise<Regrade> {
  const evidence: OrderEvidence[] = [];
  const doubts: string[] = [];
  for (const order of options.task.orders) {
    const ev = await regradeOrder(options, order, doubts);
    if (ev === null) break;
    evidence.push(ev);
    if (judgeOrder(options.rules, ev).stop) break;
  }
  const { outcome, orders } = decideOutcome(options.rules, evidence);
  return { outcome, orders, doubts };
}

/** Why a grade's test runs cannot stand against a stored verdict: one timed out, or the machine starved the one that counts. */
function doubtsOf(order: number, attempts: readonly TestAttempt[]): string[] {
  const last = attempts.at(-1);
  if (!last) return [];
  if (last.timedOut) return [`order ${order}: ${describeTestTimeout(attempts)}`];
  if (last.cpu?.starved) return [`order ${order}: the machine held the test run back from a CPU (${describeStepCpu(last.cpu)})`];
  return [];
}

/** One order's evidence from its stored change, or from its stored refusal; null when it has neither. */
async function regradeOrder(options: RegradeRunOptions, order: Order, doubts: string[]): Promise<OrderEvidence | null> {
  const { task, run } = options;
  const stored = orderDir(options.artifactsDir, order.index);
  const patch = await readStoredPatch(orderFile(stored, 'change'));
  if (patch === null) {
    // a change refused before it became a patch (too large, a patch that did not apply in the session)
    const refusal = await readRefusal(stored);
    const refused = refusal === null ? null : refusalEvidence(refusal);
    return refused && { order: order.index, ...refused };
  }
  const captured = { order: order.index, session: NO_SESSION_FINDINGS, changeRefused: null, captureFailure: null } as const;
  const grading = await orderGrading({ task, lock: options.lock, order, checksFor: options.checksFor, seed: run.seed, level: run.level });
  if ('void' in grading) return { ...captured, gradingVoid: grading.void };
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
  if ('failure' in graded) return { ...captured, gradingVoid: null, gradeFailure: graded.failure };
  if (graded.value.applied) doubts.push(...doubtsOf(order.index, graded.value.attempts));
  return { ...captured, gradingVoid: null, gradeFailure: null, grade: gradeEvidence(graded.value, grading) };
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
