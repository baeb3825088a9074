import path from 'node:path';
import { loadSources } from '../grade/checks/load-sources.js';
import { runChecks } from '../grade/checks/run-checks.js';
import { generateChecks, GeneratorError, type GeneratedSet } from '../run/generate-checks.js';
import type { AdmitOptions, TaskAdmission } from './admit-task.js';
import { workspaceWithGold } from './workspace-with-gold.js';
import type { Controls } from './schema.js';

/**
 * Admission of a checks-graded task, order by order, at every configured seed and level:
 * the generator is deterministic (two runs print the same checks); the JS gold (orders 1..n)
 * scores every check; the starting code, and the code with only the earlier orders' gold,
 * score below full. Proves the test design, not an agent.
 */
export async function admitChecksTask(options: AdmitOptions & { readonly controls: Controls }): Promise<TaskAdmission> {
  const { task, controls } = options;
  const spec = task.manifest.checks!;
  const orders = [];
  let testSec = 0;
  for (const order of task.orders) {
    const where = `order ${order.index}: `;
    const digests: Record<string, string> = {};
    let checkCount = 0;
    for (const seed of controls.seeds) {
      for (const level of controls.levels) {
        const at = `seed ${seed}, level ${level}`;
        let first: GeneratedSet;
        try {
          first = await generateChecks(order.hiddenDir, seed, level);
          const second = await generateChecks(order.hiddenDir, seed, level);
          if (second.digest !== first.digest) return { admitted: false, reason: `${where}the check generator is not deterministic at ${at}` };
        } catch (error) {
          if (error instanceof GeneratorError) return { admitted: false, reason: where + error.message };
          throw error;
        }
        digests[`${seed}:${level}`] = first.digest;
        if (checkCount !== 0 && first.checks.length !== checkCount) {
          return { admitted: false, reason: `${where}levels and seeds must not change the number of checks (${checkCount} vs ${first.checks.length} at ${at})` };
        }
        checkCount = first.checks.length;
        const started = performance.now();
        const score = (goldUpTo: number) => scoreWithGold(options, goldUpTo, spec, first, `${order.index}-${seed}-${level}-${goldUpTo}`);
        const gold = await score(order.index);
        testSec += (performance.now() - started) / 1000;
        if (gold.points < gold.max) {
          return { admitted: false, reason: `${where}the gold scores ${gold.points}/${gold.max} at ${at}: ${gold.failed.slice(0, 3).join(', ')}` };
        }
        const starting = await score(0);
        if (starting.points >= starting.max) return { admitted: false, reason: `${where}the starting code already scores full at ${at}` };
        if (order.index > 1) {
          const before = await score(order.index - 1);
          if (before.points >= before.max) return { admitted: false, reason: `${where}the earlier orders' gold already scores full at ${at}` };
        }
      }
    }
    orders.push({ order: order.index, failToPass: [], passToPass: [], checks: digests, checkCount });
  }
  return { admitted: true, orders, testSec };
}

async function scoreWithGold(
  options: AdmitOptions,
  goldUpTo: number,
  spec: { entry: string; sourceDir: string },
  generated: GeneratedSet,
  label: string,
): Promise<{ points: number; max: number; failed: string[] }> {
  const workspace = await workspaceWithGold({
    task: options.task,
    preparedRepo: options.preparedRepo,
    scratchDir: path.join(options.scratchDir, label),
    workspace: options.isolation.workspace,
    goldUpTo,
  });
  try {
    const { files } = await loadSources(workspace.dir, spec.sourceDir);
    const results = await runChecks({ files, entry: spec.entry, checks: generated.checks });
    const failed = results.filter((r) => !r.passed).map((r) => `${r.id} (${r.failure}${r.message ? `: ${r.message.slice(0, 60)}` : ''})`);
    return { points: results.length - failed.length, max: results.length, failed };
  } finally {
    await workspace.dispose();
  }
}
