import type { BakePlan, PlanMethod } from '../view/plan-bake.js';
import { formatPoints } from '../view/comparison-power.js';
import { EMPTY } from './format-cells.js';

/** Where a plan's assumptions came from, for its heading. */
export interface PlanSource {
  /** `pilot`: estimated from a results folder's two agents; `stated`: from flags. */
  readonly kind: 'pilot' | 'stated';
  /** e.g. `results/demo: gold vs noop, 24 tasks × 2 runs`. */
  readonly description: string;
}

/**
 * `bakeoff plan` as text: the target and the assumptions, the table of minimum detectable
 * differences (tasks × runs per task; `*` marks a design that reaches the target), the fewest
 * tasks per column, the proposal, what the suite's current size can reach, and the notes. Ends
 * with a newline. Pure.
 */
export function renderPlan(plan: BakePlan, source: PlanSource): string {
  const a = plan.assumptions;
  const known = [
    a.discordance === null ? null : `discordance ψ ${a.discordance.toFixed(3)}`,
    a.betweenSd === null ? null : `between-task sd ${a.betweenSd.toFixed(3)}`,
    a.withinVar === null ? null : `within-task variance ${a.withinVar.toFixed(3)}`,
  ].filter((x) => x !== null);
  const header = ['tasks', ...plan.table.runs.map((k, i) => `${k} run${k === 1 ? '' : 's'}${methodTag(plan.table.methods[i]!)}`)];
  const rows = plan.table.cells.map((row) => [
    String(row[0]?.tasks ?? ''),
    ...row.map((c) => (c.mdd === null ? 'not reachable' : `${c.mdd.toFixed(3)}${c.mdd <= plan.target + 1e-12 ? ' *' : ''}`)),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  const columns = plan.columns.map((c) =>
    `  ${c.runsPerTask} run${c.runsPerTask === 1 ? '' : 's'} per task: ${c.tasksNeeded === null ? 'more tasks than the search looked at' : `${c.tasksNeeded} tasks (${c.runsPerAgent} runs per agent, MDD ${c.mdd === null ? EMPTY : c.mdd.toFixed(3)})`}`,
  );
  const p = plan.proposal;
  const proposal = p === null
    ? 'Proposal: none of these designs reaches the target within the tasks searched; aim for a larger difference or a bigger suite.'
    : `Proposal: ${p.tasks} tasks × ${p.runsPerTask} run${p.runsPerTask === 1 ? '' : 's'} per task (${p.runsPerAgent} runs per agent, the fewest of the designs above): minimum detectable difference ${p.mdd.toFixed(3)} ≤ ${plan.target.toFixed(3)}.`;
  const now = plan.atCurrentSize;
  const current = now === null
    ? []
    : [
        now.runsPerTask === null
          ? `With the suite's ${now.tasks} tasks, no number of runs per task up to 100 reaches the target${now.floor === null ? '' : `: more runs never get the MDD below ${now.floor.toFixed(3)} (the between-task spread)`}; more tasks are needed.`
          : `With the suite's ${now.tasks} tasks: ${now.runsPerTask} run${now.runsPerTask === 1 ? '' : 's'} per task reach the target${now.floor === null ? '' : ` (no number of runs gets the MDD below ${now.floor.toFixed(3)})`}.`,
      ];
  return [
    `Plan for a paired comparison that detects a difference of ${formatPoints(plan.target)} in share solved, at ${plan.power * 100} % power and α = ${plan.alpha} (two-sided).`,
    `Assumptions (${source.kind === 'pilot' ? `estimated from the pilot ${source.description}` : source.description}): ${known.join(', ') || 'none'}.`,
    '',
    'Minimum detectable difference by tasks × runs per task (* reaches the target):',
    line(header),
    ...rows.map(line),
    '',
    'Fewest tasks that reach the target:',
    ...columns,
    '',
    proposal,
    ...current,
    ...(plan.notes.length > 0 ? ['', ...plan.notes.map((n) => `Note: ${n}.`)] : []),
    '',
    'One run per task is sized by the exact McNemar test at the discordance ψ (a net gap needs ψ at least as large); several by the paired t on per-task shares: SE = sqrt(sd_b²/T + w/(k·T)), MDD = (t(0.975, T−1) + t(0.80, T−1)) · SE.',
  ].join('\n') + '\n';
}

function methodTag(method: PlanMethod): string {
  return method === 'exact-mcnemar' ? ' (McNemar)' : '';
}
