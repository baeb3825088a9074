import type { Suite } from '../suite/index.js';
import type { RunRecord } from '../types.js';
import type { ResultsExporter } from './types.js';

/** One line of a SWE-bench predictions file. */
export interface Prediction {
  readonly instance_id: string;
  readonly model_name_or_path: string;
  /** The agent's change (order 1's stored change: relative to the repo root, setup outputs left out); null when none was stored. */
  readonly model_patch: string | null;
}

export interface PredictionsResult {
  readonly predictions: readonly Prediction[];
  /** Runs not exported, each with the reason (not a SWE-bench task, several orders, another replay). */
  readonly skipped: readonly { readonly run: string; readonly reason: string }[];
}

/**
 * A SWE-bench predictions file from stored runs: one line per (SWE-bench task, agent) at the
 * given replay (0-based), `instance_id` = the task's `origin.id`, `model_name_or_path` = the
 * agent id. Pure: `patchOf(run)` reads the run's stored change of order 1.
 */
export function swebenchPredictions(runs: readonly RunRecord[], suite: Suite, patchOf: (run: RunRecord) => string | null, options: { replay: number; agents?: readonly string[] }): PredictionsResult {
  const tasks = new Map(suite.tasks.map((t) => [t.id, t]));
  const predictions: Prediction[] = [];
  const skipped: { run: string; reason: string }[] = [];
  for (const run of [...runs].sort((a, b) => (a.agent.id + a.task < b.agent.id + b.task ? -1 : 1))) {
    if (options.agents && options.agents.length > 0 && !options.agents.includes(run.agent.id)) continue;
    if (run.replay !== options.replay) continue;
    const task = tasks.get(run.task);
    const origin = task?.manifest.origin;
    if (!task || origin?.kind !== 'swebench' || !origin.id) {
      skipped.push({ run: run.id, reason: `task ${run.task} is not a SWE-bench instance (no origin.kind swebench with an id)` });
      continue;
    }
    if (task.orders.length > 1) {
      skipped.push({ run: run.id, reason: `task ${run.task} has ${task.orders.length} orders; a prediction is one patch` });
      continue;
    }
    predictions.push({ instance_id: origin.id, model_name_or_path: run.agent.id, model_patch: patchOf(run) });
  }
  return { predictions, skipped };
}

/** `export swebench-predictions` in the registry. */
export const swebenchPredictionsExporter: ResultsExporter = { from: 'results', writes: 'SWE-bench predictions (JSONL), one line per SWE-bench task and agent' };
