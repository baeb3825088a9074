import type { RunRecord } from '../../types.js';
import type { PairedComparison } from '../view/compare-paired.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';
import { compareText } from '../common/compare-text.js';
import { escapeHtml } from './escape-html.js';
import { renderCompareBody } from './render-compare-body.js';
import { renderIndexBody } from './render-index-page.js';
import { renderPage } from './render-page.js';
import type { TaskNames } from './task-labels.js';

/** What {@link renderHtmlReport} draws: what `report()` returns. */
export interface HtmlReportInput {
  /** The leaderboard (`mixed` must be empty: `report()` refuses mixed runs before this). */
  readonly view: LeaderboardView;
  /** The runs of the view: the last one's end is the report's time. */
  readonly runs: readonly RunRecord[];
  /** With `--compare A B`: the paired comparison instead of the leaderboard. */
  readonly comparison?: PairedComparison;
}

/**
 * `bakeoff report --format html`: the site's leaderboard page (or its paired comparison page)
 * as one self-contained file — the same renderers, inline CSS and sort script, no navigation,
 * agents named as plain text (there are no agent pages), no URL at all. Every text is escaped.
 * Tasks are named by id, as the table and markdown reports name them: it is the owner's report,
 * read from the results folder alone (the public site's task labels need the suite).
 * The time shown is when the last run finished, so the same results give the same bytes. Pure.
 */
export function renderHtmlReport(input: HtmlReportInput): string {
  const { view, comparison } = input;
  const title = comparison ? `Paired comparison: ${comparison.a} vs ${comparison.b}` : `Leaderboard: ${view.suite?.id ?? 'no runs'}`;
  const body = comparison ? renderCompareBody({ ok: true, comparison }, taskIds(comparison.perTask.map((t) => t.task))) : renderIndexBody(view, () => null);
  return renderPage({ title, body, root: '', view, generatedAt: lastFinished(input.runs), isPrivate: false, standalone: true });
}

/** Tasks named by their ids (numbered by their place among `ids` sorted). */
function taskIds(ids: readonly string[]): TaskNames {
  const numbers = new Map([...ids].sort(compareText).map((id, i) => [id, i + 1]));
  return {
    isPrivate: true, // as on a private site: the id is shown
    label: (id) => ({ number: numbers.get(id) ?? 0, text: id, summary: null }),
    text: (id) => id,
    html: (id) => escapeHtml(id),
  };
}

/** The latest `finishedAt` (ISO times sort as text); `–` without runs. */
function lastFinished(runs: readonly RunRecord[]): string {
  return runs.reduce<string | null>((last, run) => (last === null || run.finishedAt > last ? run.finishedAt : last), null) ?? '–';
}
