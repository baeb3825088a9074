import type { LeaderboardView } from '../view/leaderboard-view.js';

/**
 * Points by task and order for suites whose tasks have several orders or generated checks:
 * one line per task, one cell per agent (`32+30/64 ✗`), then each agent's total and the
 * tasks (projects) it passed with every point. Shown apart from time and token use. Empty
 * when no task has more than one order. Pure.
 */
export function renderPoints(view: LeaderboardView): string[] {
  const multiOrder = view.tasks.some((row) => row.cells.some((cell) => cell.orderPoints.length > 1));
  if (!multiOrder) return [];
  const header = ['task', ...view.agents.map((a) => a.agent.id)];
  const rows = view.tasks.map((row) => [
    row.task,
    ...row.cells.map((cell) => {
      if (cell.orderPoints.length === 0) return '–';
      const got = cell.orderPoints.reduce((a, o) => a + o.points, 0);
      const max = cell.orderPoints.reduce((a, o) => a + o.maxPoints, 0);
      return `${cell.orderPoints.map((o) => o.points).join('+')}/${max} ${got === max && max > 0 ? '✓' : '✗'}`;
    }),
  ]);
  const totals = [
    'total',
    ...view.agents.map((a) => {
      const passed = view.tasks.filter((row) => {
        const cell = row.cells.find((c) => c.agentId === a.agent.id);
        const max = cell?.orderPoints.reduce((s, o) => s + o.maxPoints, 0) ?? 0;
        return max > 0 && cell!.orderPoints.reduce((s, o) => s + o.points, 0) === max;
      }).length;
      return `${a.points}/${a.maxPoints}, ${passed}/${view.tasks.length} passed`;
    }),
  ];
  const table = [header, ...rows, totals];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return ['Points by task (order 1 + order 2 + …, out of the maximum; ✓ = every point):', line(header), ...rows.map(line), line(totals)];
}
