import { formatCount, formatDuration, formatShare, formatTokens, formatUsd } from '../render/format-cells.js';
import type { AgentSummary, LeaderboardView } from '../view/leaderboard-view.js';
import { escapeHtml } from './escape-html.js';
import { renderScatter } from './render-scatter.js';

/** One sortable column of the site's leaderboard. */
interface SiteColumn {
  readonly header: string;
  /** Sortable columns carry the numeric value each cell sorts by (null: no value, sorted last). */
  readonly sortValue?: (a: AgentSummary) => number | null;
  readonly cell: (a: AgentSummary, href: string) => string;
  readonly numeric?: boolean;
}

const COLUMNS: readonly SiteColumn[] = [
  { header: 'rank', numeric: true, sortValue: (a) => a.rank, cell: (a) => (a.rank === null ? '–' : String(a.rank)) },
  { header: 'agent', cell: (a, href) => `<a href="${escapeHtml(href)}">${escapeHtml(a.agent.id)}</a>` },
  { header: 'harness', cell: (a) => escapeHtml(a.agent.harness) },
  { header: 'version', cell: (a) => escapeHtml(a.agent.version ?? '–') },
  { header: 'model@effort', cell: (a) => escapeHtml(`${a.agent.model ?? '–'}${a.agent.effort === null ? '' : `@${a.agent.effort}`}`) },
  { header: 'runs', numeric: true, cell: (a) => escapeHtml(a.runCountTag === null ? String(a.runs) : `${a.runs} (${a.runCountTag})`) },
  { header: 'solved', numeric: true, cell: (a) => String(a.solved) },
  { header: 'share [95% CI]', numeric: true, sortValue: (a) => a.solveShare, cell: (a) => escapeHtml(formatShare(a.solveShare, a.ci95)) },
  { header: 'void as failed', numeric: true, sortValue: (a) => a.solveShareVoidAsFail, cell: (a) => escapeHtml(formatShare(a.solveShareVoidAsFail, null)) },
  { header: 'void', numeric: true, cell: (a) => String(a.void) },
  { header: 'cost per fix', numeric: true, sortValue: (a) => a.costPerFixUsd, cell: (a) => escapeHtml(formatUsd(a.costPerFixUsd)) },
  { header: 'median time', numeric: true, sortValue: (a) => a.medianRunSec, cell: (a) => escapeHtml(formatDuration(a.medianRunSec)) },
  { header: 'median lines', numeric: true, sortValue: (a) => a.medianLinesToReview, cell: (a) => escapeHtml(formatCount(a.medianLinesToReview)) },
  { header: 'tokens in', numeric: true, cell: (a) => escapeHtml(formatTokens(a.tokensIn)) },
  { header: 'tokens out', numeric: true, cell: (a) => escapeHtml(formatTokens(a.tokensOut)) },
];

/**
 * The body of `index.html`: the leaderboard in rank order (sortable by rank, share, cost per
 * fix, time and lines), the two charts, and the void and replay tables. Pure.
 *
 * @param agentHref the link of an agent's page, relative to the site root
 */
export function renderIndexBody(view: LeaderboardView, agentHref: (id: string) => string): string {
  const head = COLUMNS.map(
    (c) => `<th${c.numeric ? ' class="num"' : ''}${c.sortValue ? ` data-sort="${escapeHtml(c.header)}" title="click to sort"` : ''}>${escapeHtml(c.header)}</th>`,
  ).join('');
  const rows = view.agents.map((a) => {
    const cells = COLUMNS.map((c) => {
      const value = c.sortValue?.(a);
      const data = c.sortValue ? ` data-value="${value === null || value === undefined ? '' : value}"` : '';
      return `<td${c.numeric ? ' class="num"' : ''}${data}>${c.cell(a, agentHref(a.agent.id))}</td>`;
    });
    return `<tr data-agent="${escapeHtml(a.agent.id)}">${cells.join('')}</tr>`;
  });
  const points = (x: (a: AgentSummary) => number | null) =>
    view.agents.map((a) => ({ label: a.agent.id, x: x(a), y: a.solveShare }));
  return [
    `<table class="sortable leaderboard"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`,
    '<p class="context">Click rank, share, cost per fix, median time or median lines to sort. Share = solved / valid runs (void runs left out, never counted as failed); void as failed = solved / all runs; cost per fix = cost of all runs / runs solved.</p>',
    '<h2>Charts</h2>',
    renderScatter({
      title: 'share solved vs cost per fix',
      xLabel: 'cost per fix (USD)',
      yLabel: 'share solved',
      points: points((a) => a.costPerFixUsd),
      formatX: formatUsd,
      missingX: 'no cost data',
    }),
    renderScatter({
      title: 'share solved vs median time per run',
      xLabel: 'median time per run',
      yLabel: 'share solved',
      points: points((a) => a.medianRunSec),
      formatX: formatDuration,
      missingX: 'no time data',
    }),
    renderVoidTable(view),
    renderReplayTable(view),
  ].join('\n');
}

/** Void runs per agent and reason. */
export function renderVoidTable(view: LeaderboardView): string {
  const rows = view.agents.map((a) => {
    const reasons = Object.entries(a.voidByReason).map(([reason, n]) => `${reason} ${n}`).join(', ') || 'none';
    return `<tr><td>${escapeHtml(a.agent.id)}</td><td class="num">${a.void}</td><td class="num">${a.runs}</td><td>${escapeHtml(reasons)}</td><td class="num">${a.voidTasks.length}</td></tr>`;
  });
  return `<h2>Void</h2><table class="void-table"><thead><tr><th>agent</th><th class="num">void runs</th><th class="num">runs</th><th>reasons</th><th class="num">void tasks</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Replay agreement per agent, or why there is none. */
export function renderReplayTable(view: LeaderboardView): string {
  if (view.replayRule === null) return '<h2>Replays</h2><p>No replay rule: runs are independent samples, replay agreement is not judged.</p>';
  const rows = view.agents.map((a) => {
    const r = a.replay;
    return `<tr><td>${escapeHtml(a.agent.id)}</td><td class="num">${r?.agreeing ?? 0}/${r?.compared ?? 0}</td><td class="num">${r?.solvedTasks ?? 0}/${r?.validTasks ?? 0}</td></tr>`;
  });
  return `<h2>Replays</h2><table class="replay-table"><thead><tr><th>agent</th><th class="num">replays agree (tasks)</th><th class="num">tasks solved / valid</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
