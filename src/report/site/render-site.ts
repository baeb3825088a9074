import { slugify } from './escape-html.js';
import { renderAgentBody } from './render-agent-body.js';
import { renderCompareBody, renderPairPicker } from './render-compare-body.js';
import { renderIndexBody } from './render-index-page.js';
import { renderMatrixBody } from './render-matrix-body.js';
import { renderMethodologyBody } from './methodology/render-methodology-body.js';
import { renderPage } from './render-page.js';
import { renderRunBody } from './render-run-body.js';
import { renderRunsBody } from './render-runs-body.js';
import type { SiteInput } from './site-input.js';
import type { ComparePairedResult } from '../view/compare-paired.js';
import { createSiteNames } from './site-names.js';

/**
 * The static site of a results folder, as files (path relative to the site root → HTML):
 *
 *   index.html            leaderboard (sortable), charts, void and replay tables
 *   methodology.html      how the bake was run, written from the suite, controls and runs
 *   matrix.html           task × agent, each cell linking to its runs
 *   runs.html             every run, with filters by agent, task, outcome, reason and text
 *   compare.html          paired comparison of the top two agents (or why there is none)
 *   agents/<slug>.html    one per agent: identity, numbers, void reasons, replay agreement, runs
 *   runs/<name>.html      one per run: outcome, reason, time, points per order, lines
 *                         (name: the run id on a private site, task-<n>-<agent>-<replay> on a public one)
 *
 * Every page is self-contained (inline CSS and script, no URL outside the site). Without
 * `privateDetail` no codebase, prompt, hidden test, change or agent output text is drawn, and
 * no task id: a task is its label (task-labels.ts), in content and file names alike; every
 * text is escaped. Pure.
 */
export function renderSite(input: SiteInput): Map<string, string> {
  return new Map([...sitePages(input)].map(([file, render]) => [file, render()]));
}

/**
 * The pages of {@link renderSite}, each drawn only when asked for (`bakeoff view` draws the
 * one page a request wants). Pure.
 */
export function sitePages(input: SiteInput): Map<string, () => string> {
  const { view, runs } = input;
  const slugs = new Map<string, string>();
  for (const a of view.agents) slugs.set(a.agent.id, slugify(a.agent.id, new Set(slugs.values())));
  const agentSlug = (id: string): string => slugs.get(id) ?? slugify(id, new Set());
  const agentPath = (id: string): string => `agents/${agentSlug(id)}.html`;
  const isPrivate = input.privateDetail !== undefined;
  const names = createSiteNames({ suite: input.suite, runs, isPrivate, agentSlug });
  const page = (title: string, body: string, root: '' | '../'): string =>
    renderPage({ title, body, root, view, generatedAt: input.generatedAt, isPrivate, ...(input.live ? { live: true } : {}) });

  const files = new Map<string, () => string>();
  files.set('index.html', () => page(`Leaderboard: ${view.suite?.id ?? 'no runs'}`, renderIndexBody(view, agentPath), ''));
  files.set('methodology.html', () =>
    page(`How the ${view.suite?.id ?? input.suite.id} bake is run`, renderMethodologyBody({ suite: input.suite, view, runs, isPrivate, ...(input.workers ? { workers: input.workers } : {}), ...(input.toolPolicy ? { toolPolicy: input.toolPolicy } : {}) }), ''),
  );
  const cellHref = (task: string, agentId: string): string | null => {
    const cell = runs.filter((r) => r.task === task && r.agent.id === agentId);
    if (cell.length === 0) return null;
    if (cell.length === 1) return names.runPath(cell[0]!);
    return `runs.html?${new URLSearchParams({ task: names.tasks.text(task), agent: agentId }).toString()}`;
  };
  files.set('matrix.html', () => page('Task × agent', renderMatrixBody(view, agentPath, names.tasks, cellHref), ''));
  files.set('runs.html', () => page('Runs', renderRunsBody(runs, names), ''));
  files.set('compare.html', () => renderComparePage(input, input.comparison));
  for (const agent of view.agents) {
    files.set(agentPath(agent.agent.id), () => {
      const own = runs.filter((r) => r.agent.id === agent.agent.id);
      return page(`Agent ${agent.agent.id}`, renderAgentBody(view, agent, own, names, input.costByClass?.get(agent.agent.id)), '../');
    });
  }
  for (const run of runs) {
    files.set(names.runPath(run), () => {
      const body = renderRunBody({ run, names, agentHref: `../${agentPath(run.agent.id)}`, detail: input.privateDetail?.get(run.id), failure: view.failureAnatomy.runs[run.id] });
      return page(`Run ${names.runName(run)} (${names.tasks.text(run.task)}, ${run.agent.id})`, body, '../');
    });
  }
  return files;
}


/**
 * `compare.html` for `comparison` (the top two agents' on a written site; any pair picked in
 * `bakeoff view`, whose page has the picker). Pure.
 */
export function renderComparePage(input: SiteInput, comparison: ComparePairedResult | null): string {
  const { view } = input;
  const names = createSiteNames({ suite: input.suite, runs: input.runs, isPrivate: input.privateDetail !== undefined, agentSlug: (id) => slugify(id, new Set()) });
  const pair = comparison?.ok ? `${comparison.comparison.a} vs ${comparison.comparison.b}` : view.agents.length >= 2 ? `${view.agents[0]!.agent.id} vs ${view.agents[1]!.agent.id}` : 'none';
  const picker = input.live ? renderPairPicker(view.agents.map((a) => a.agent.id), comparison?.ok ? [comparison.comparison.a, comparison.comparison.b] : null) : '';
  return renderPage({
    title: `Paired comparison: ${pair}`,
    body: picker + renderCompareBody(comparison, names.tasks),
    root: '',
    view,
    generatedAt: input.generatedAt,
    isPrivate: input.privateDetail !== undefined,
    ...(input.live ? { live: true } : {}),
  });
}
