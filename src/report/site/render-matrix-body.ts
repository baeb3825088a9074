import type { LeaderboardView } from '../view/leaderboard-view.js';
import { escapeHtml } from './escape-html.js';
import type { TaskNames } from './task-labels.js';

/**
 * The body of `matrix.html`: one row per task (named by its label, its public summary as the
 * tooltip), one column per agent (rank order): solved/runs, void, points per order, each cell
 * a link to its runs when `cellHref` gives one. Pure.
 */
export function renderMatrixBody(view: LeaderboardView, agentHref: (id: string) => string, tasks: TaskNames, cellHref?: (task: string, agentId: string) => string | null): string {
  const head = view.agents.map((a) => `<th><a href="${escapeHtml(agentHref(a.agent.id))}">${escapeHtml(a.agent.id)}</a></th>`).join('');
  const rows = view.tasks.map((row) => {
    const cells = row.cells.map((c) => {
      if (c.runs === 0) return '<td>–</td>';
      const points = c.orderPoints.map((p) => `${p.points}/${p.maxPoints}`).join(' · ');
      const kind = c.void === c.runs ? 'void' : c.solved === c.runs - c.void ? 'solved' : c.solved === 0 ? 'failed' : '';
      const text = `${c.solved}/${c.runs} solved${c.void > 0 ? `, ${c.void} void` : ''}${points ? `; points ${points}` : ''}`;
      const href = cellHref?.(row.task, c.agentId) ?? null;
      return `<td class="${kind}">${href === null ? escapeHtml(text) : `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`}</td>`;
    });
    return `<tr><th>${tasks.html(row.task)}</th>${cells.join('')}</tr>`;
  });
  return `<table class="matrix"><thead><tr><th>task</th>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}
