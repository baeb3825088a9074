import { EMPTY } from './format-cells.js';
import type { LeaderboardView, TaskCell } from '../view/leaderboard-view.js';

/** One cell of the task × agent matrix: runs solved out of runs, and the void runs when there are any (`1/2 (1 void)`). */
export function formatMatrixCell(cell: TaskCell): string {
  return cell.runs === 0 ? EMPTY : `${cell.solved}/${cell.runs}${cell.void > 0 ? ` (${cell.void} void)` : ''}`;
}

/** Agent ids longer than this are cut with `…` in the terminal matrix's header (the leaderboard above names them whole). */
const MAX_AGENT_HEADER = 24;

/**
 * The task × agent matrix as terminal text (`report --matrix`): one line per task, one column
 * per agent in rank order, each cell {@link formatMatrixCell}. Agents that do not fit `width`
 * are named in a line under it. Pure; ends without a newline.
 */
export function renderMatrix(view: LeaderboardView, width?: number): string {
  if (view.tasks.length === 0 || view.agents.length === 0) return 'Solved runs by task: (no runs)';
  const cut = (id: string): string => (id.length > MAX_AGENT_HEADER ? `${id.slice(0, MAX_AGENT_HEADER - 1)}…` : id);
  const table = [
    ['task', ...view.agents.map((a) => cut(a.agent.id))],
    ...view.tasks.map((row) => [row.task, ...row.cells.map(formatMatrixCell)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  let shown = widths.length;
  while (width !== undefined && shown > 2 && widths.slice(0, shown).reduce((a, b) => a + b + 2, -2) > width) shown--;
  const line = (row: readonly string[]): string =>
    row.slice(0, shown).map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const left = view.agents.slice(shown - 1).map((a) => a.agent.id);
  return [
    'Solved runs by task (solved/runs):',
    line(table[0]!),
    ...table.slice(1).map(line),
    ...(left.length === 0 ? [] : [`left out to fit ${width} columns: ${left.join(', ')}`]),
  ].join('\n');
}
