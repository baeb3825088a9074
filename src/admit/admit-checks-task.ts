import path from 'node:path';
import { loadSources, runChecks, DEFAULT_CHECK_LIMITS, type CheckResult } from '../grade/index.js';
import { generateChecks, GeneratorError, keepGeneratedChecks, type GeneratedChecksCache, type GeneratedSet } from '../run/index.js';
import type { AdmitOptions, OrderAdmission, TaskAdmission } from './admit-task.js';
import { goldAttemptNotes, goldFailureReason, heaviestGoldNote, type GoldAttempt } from './gold-attempts.js';
import { workspaceWithGold } from './workspace-with-gold.js';
import type { Controls } from '../suite/index.js';

/** Times the gold is scored at every seed and level (each in fresh workers): it must score full every time. */
export const GOLD_ATTEMPTS = 2;

/**
 * An admission with notes: measured figures (CPU time of the gold's checks against the limit,
 * points per attempt) that explain the verdict. They vary from run to run, so they are
 * printed, never stored in the lock.
 */
export type NotedAdmission = TaskAdmission & {
  readonly notes?: readonly string[];
  /** A rejection's test output logs, kept under the cache folder (never stored in the lock). */
  readonly logs?: readonly string[];
  /** A rejection's hacker runs (validate --hacker), each folder kept under the cache folder as evidence (never stored in the lock). */
  readonly evidence?: readonly string[];
};

/**
 * Admission of a checks-graded task, order by order, at every configured seed and level:
 * the generator is deterministic (two runs print the same checks); the JS gold (orders 1..n)
 * scores every check, in each of {@link GOLD_ATTEMPTS} attempts (a gold that scores full only
 * sometimes is load-sensitive, and rejected with the numbers); the starting code, and the code
 * with only the earlier orders' gold, score below full. Proves the test design, not an agent.
 */
export async function admitChecksTask(options: AdmitOptions & { readonly controls: Controls; readonly keptChecks?: GeneratedChecksCache }): Promise<NotedAdmission> {
  const { task, controls } = options;
  const spec = task.manifest.checks!;
  const orders: OrderAdmission[] = [];
  const attempts: GoldAttempt[] = [];
  let testSec = 0;
  for (const order of task.orders) {
    const where = `order ${order.index}: `;
    const digests: Record<string, string> = {};
    let checkCount = 0;
    for (const seed of controls.seeds) {
      for (const level of controls.levels) {
        const at = `seed ${seed}, level ${level}`;
        options.onStage?.(`${task.orders.length > 1 ? `order ${order.index} ` : ''}checks at ${at}`);
        let first: GeneratedSet;
        try {
          first = await generateChecks(order.hiddenDir, seed, level);
          const second = await generateChecks(order.hiddenDir, seed, level);
          if (second.digest !== first.digest) return { admitted: false, reason: `${where}the check generator is not deterministic at ${at}` };
          // proved deterministic: the task's bakes take this set instead of generating it again
          if (options.keptChecks) keepGeneratedChecks(options.keptChecks, task, order.index, seed, level, first);
        } catch (error) {
          if (error instanceof GeneratorError) return { admitted: false, reason: where + error.message };
          throw error;
        }
        digests[`${seed}:${level}`] = first.digest;
        if (checkCount !== 0 && first.checks.length !== checkCount) {
          return { admitted: false, reason: `${where}levels and seeds must not change the number of checks (${checkCount} vs ${first.checks.length} at ${at})` };
        }
        checkCount = first.checks.length;
        const score = (goldUpTo: number, times = 1) => scoreWithGold(options, goldUpTo, spec, first, `${order.index}-${seed}-${level}-${goldUpTo}`, times);
        const started = performance.now();
        const golds = (await score(order.index, GOLD_ATTEMPTS)).map((results, i): GoldAttempt => ({ order: order.index, seed, level, attempt: i + 1, results }));
        testSec += (performance.now() - started) / 1000 / GOLD_ATTEMPTS;
        attempts.push(...golds);
        const failure = goldFailureReason(golds, DEFAULT_CHECK_LIMITS.cpuMs);
        if (failure) return { admitted: false, reason: `${where}${failure}`, notes: goldAttemptNotes(golds, DEFAULT_CHECK_LIMITS.cpuMs) };
        if (isFull((await score(0))[0]!)) return { admitted: false, reason: `${where}the starting code already scores full at ${at}` };
        if (order.index > 1 && isFull((await score(order.index - 1))[0]!)) return { admitted: false, reason: `${where}the earlier orders' gold already scores full at ${at}` };
      }
    }
    orders.push({ order: order.index, failToPass: [], passToPass: [], checks: digests, checkCount });
  }
  const heaviest = heaviestGoldNote(attempts, DEFAULT_CHECK_LIMITS.cpuMs);
  return { admitted: true, orders, testSec, ...(heaviest ? { notes: [heaviest] } : {}) };
}

function isFull(results: readonly CheckResult[]): boolean {
  return results.every((r) => r.passed);
}

async function scoreWithGold(
  options: AdmitOptions,
  goldUpTo: number,
  spec: { entry: string; sourceDir: string },
  generated: GeneratedSet,
  label: string,
  times: number,
): Promise<CheckResult[][]> {
  const workspace = await workspaceWithGold({
    task: options.task,
    preparedRepo: options.preparedRepo,
    scratchDir: path.join(options.scratchDir, label),
    workspace: options.isolation.workspace,
    goldUpTo,
  });
  try {
    const { files } = await loadSources(workspace.dir, spec.sourceDir);
    const runs: CheckResult[][] = [];
    for (let i = 0; i < times; i++) runs.push(await runChecks({ files, entry: spec.entry, checks: generated.checks }));
    return runs;
  } finally {
    await workspace.dispose();
  }
}
