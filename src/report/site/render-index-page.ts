import { formatRank } from '../render/format-rank.js';
import { formatCount, formatDuration, formatShare, formatTokens, formatUsd } from '../render/format-cells.js';
import type { AgentSummary, LeaderboardView } from '../view/leaderboard-view.js';
import { escapeBreakable, escapeHtml } from './escape-html.js';
import { renderScatter } from './render-scatter.js';
import { renderShareBar } from './render-share-bar.js';
import { renderFailureBar } from './render-failure-bar.js';
import { failureNote } from '../render/describe-failures.js';
import { FAILURE_SIDES } from '../view/failure-classes.js';

/** One sortable column of the site's leaderboard. */
interface SiteColumn {
  readonly header: string;
  /** Sortable columns carry the numeric value each cell sorts by (null: no value, sorted last). */
  readonly sortValue?: (a: AgentSummary) => number | null;
  /** `href`: the agent's page, or null for its name as plain text. */
  readonly cell: (a: AgentSummary, href: string | null) => string;
  readonly numeric?: boolean;
}

const COLUMNS: readonly SiteColumn[] = [
  { header: 'rank', numeric: true, sortValue: (a) => a.rank, cell: (a) => formatRank(a) },
  {
    header: 'agent',
    cell: (a, href) => (href === null ? `<span class="agent">${escapeBreakable(a.agent.id)}</span>` : `<a class="agent" href="${escapeHtml(href)}">${escapeBreakable(a.agent.id)}</a>`),
  },
  {
    header: 'share [95% CI]',
    numeric: true,
    sortValue: (a) => a.solveShare,
    cell: (a) => `<span class="share-text">${escapeHtml(formatShare(a.solveShare, a.ci95))}</span>${renderShareBar(a.solveShare, a.ci95)}`,
  },
  { header: 'void as failed', numeric: true, sortValue: (a) => a.solveShareVoidAsFail, cell: (a) => escapeHtml(formatShare(a.solveShareVoidAsFail, null)) },
  { header: 'solved', numeric: true, sortValue: (a) => a.solved, cell: (a) => String(a.solved) },
  { header: 'runs', numeric: true, sortValue: (a) => a.runs, cell: (a) => (a.runCountTag === null ? String(a.runs) : `${a.runs}<span class="sub">${escapeHtml(`(${a.runCountTag})`)}</span>`) },
  { header: 'void', numeric: true, sortValue: (a) => a.void, cell: (a) => String(a.void) },
  { header: 'cost per fix', numeric: true, sortValue: (a) => a.costPerFixUsd, cell: (a) => escapeHtml(formatUsd(a.costPerFixUsd)) },
  { header: 'median time', numeric: true, sortValue: (a) => a.medianRunSec, cell: (a) => escapeHtml(formatDuration(a.medianRunSec)) },
  { header: 'median lines', numeric: true, sortValue: (a) => a.medianLinesToReview, cell: (a) => escapeHtml(formatCount(a.medianLinesToReview)) },
  { header: 'tokens in', numeric: true, sortValue: (a) => a.tokensIn, cell: (a) => escapeHtml(formatTokens(a.tokensIn)) },
  { header: 'tokens out', numeric: true, sortValue: (a) => a.tokensOut, cell: (a) => escapeHtml(formatTokens(a.tokensOut)) },
  { header: 'harness, version', cell: (a) => `${escapeHtml(a.agent.harness)}<span class="sub">${escapeHtml(a.agent.version ?? '–')}</span>` },
  { header: 'model@effort', cell: (a) => escapeHtml(`${a.agent.model ?? '–'}${a.agent.effort === null ? '' : `@${a.agent.effort}`}`) },
];

/**
 * The body of `index.html`: the leaderboard in rank order, each numeric column sortable with a
 * button in its header (the sort script of render-page.ts; `aria-sort` on the header says the
 * order, rank ascending at first), the share drawn with its interval as a small bar, the two
 * charts, and the void and replay tables. Pure.
 *
 * @param agentHref the link of an agent's page, relative to the site root; null where there is
 *   no such page (a one-file report): the agent's id as plain text
 */
export function renderIndexBody(view: LeaderboardView, agentHref: (id: string) => string | null): string {
  const head = COLUMNS.map((c) => {
    const cls = c.numeric ? ' class="num"' : '';
    if (!c.sortValue) return `<th scope="col"${cls}>${escapeHtml(c.header)}</th>`;
    const sorted = c.header === 'rank' ? ' aria-sort="ascending"' : '';
    return `<th scope="col"${cls}${sorted}><button type="button" class="sort" data-sort="${escapeHtml(c.header)}">${escapeHtml(c.header)}</button></th>`;
  }).join('');
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
    '<p class="narrow-only">The table scrolls sideways: cost, time, lines, tokens and the harness follow the share.</p>',
    `<table class="sortable leaderboard" aria-label="leaderboard"><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`,
    '<p class="context">Sort by a column with the button in its header; press it again to reverse (agents without a value stay last). Share = solved / valid runs (void runs left out, never counted as failed); void as failed = solved / all runs; cost per fix = cost of all runs / runs solved.</p>',
    '<h2>Charts</h2>',
    '<div class="charts">',
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
    '</div>',
    renderFailuresSection(view),
    renderVoidTable(view),
    renderReplayTable(view),
  ].join('\n');
}

/** Why runs were not solved, per agent: a stacked bar of its runs by class, and the counts by side. */
export function renderFailuresSection(view: LeaderboardView): string {
  const rows = view.agents.map((a) => {
    const sides = FAILURE_SIDES.filter((side) => a.failures.bySide[side]).map((side) => `${side} ${a.failures.bySide[side]}`).join(', ') || 'none';
    return `<tr><td>${escapeBreakable(a.agent.id)}</td><td class="bar">${renderFailureBar(a.runs, a.runs - a.failures.notSolved, a.failures)}</td><td class="num">${a.failures.notSolved}/${a.runs}</td><td>${escapeHtml(sides)}</td></tr>`;
  });
  return (
    `<h2>Why runs were not solved</h2><p class="context">${escapeHtml(failureNote(view.failureAnatomy.version))}</p>` +
    `<table class="failures" aria-label="runs not solved per agent, by failure class"><thead><tr><th scope="col">agent</th><th scope="col">runs by class</th><th scope="col" class="num">not solved</th><th scope="col">by side</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

/** Void runs per agent and reason. */
export function renderVoidTable(view: LeaderboardView): string {
  const rows = view.agents.map((a) => {
    const reasons = Object.entries(a.voidByReason).map(([reason, n]) => `${reason} ${n}`).join(', ') || 'none';
    return `<tr><td>${escapeHtml(a.agent.id)}</td><td class="num">${a.void}</td><td class="num">${a.runs}</td><td>${escapeHtml(reasons)}</td><td class="num">${a.voidTasks.length}</td></tr>`;
  });
  return `<h2>Void</h2><table class="void-table" aria-label="void runs per agent"><thead><tr><th scope="col">agent</th><th scope="col" class="num">void runs</th><th scope="col" class="num">runs</th><th scope="col">reasons</th><th scope="col" class="num">void tasks</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Replay agreement per agent, or why there is none. */
export function renderReplayTable(view: LeaderboardView): string {
  if (view.replayRule === null) return '<h2>Replays</h2><p>No replay rule: runs are independent samples, replay agreement is not judged.</p>';
  const rows = view.agents.map((a) => {
    const r = a.replay;
    return `<tr><td>${escapeHtml(a.agent.id)}</td><td class="num">${r?.agreeing ?? 0}/${r?.compared ?? 0}</td><td class="num">${r?.solvedTasks ?? 0}/${r?.validTasks ?? 0}</td></tr>`;
  });
  return `<h2>Replays</h2><table class="replay-table" aria-label="replay agreement per agent"><thead><tr><th scope="col">agent</th><th scope="col" class="num">replays agree (tasks)</th><th scope="col" class="num">tasks solved / valid</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
