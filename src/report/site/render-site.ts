import { slugify } from './escape-html.js';
import { renderAgentBody } from './render-agent-body.js';
import { renderCompareBody } from './render-compare-body.js';
import { renderIndexBody } from './render-index-page.js';
import { renderMatrixBody } from './render-matrix-body.js';
import { renderMethodologyBody } from './methodology/render-methodology-body.js';
import { renderPage } from './render-page.js';
import { renderRunBody } from './render-run-body.js';
import type { SiteInput } from './site-input.js';
import { createSiteNames } from './site-names.js';

/**
 * The static site of a results folder, as files (path relative to the site root → HTML):
 *
 *   index.html            leaderboard (sortable), charts, void and replay tables
 *   methodology.html      how the bake was run, written from the suite, controls and runs
 *   matrix.html           task × agent
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
  const { view, runs } = input;
  const slugs = new Map<string, string>();
  for (const a of view.agents) slugs.set(a.agent.id, slugify(a.agent.id, new Set(slugs.values())));
  const agentSlug = (id: string): string => slugs.get(id) ?? slugify(id, new Set());
  const agentPath = (id: string): string => `agents/${agentSlug(id)}.html`;
  const isPrivate = input.privateDetail !== undefined;
  const names = createSiteNames({ suite: input.suite, runs, isPrivate, agentSlug });
  const page = (title: string, body: string, root: '' | '../'): string =>
    renderPage({ title, body, root, view, generatedAt: input.generatedAt, isPrivate });

  const files = new Map<string, string>();
  files.set('index.html', page(`Leaderboard: ${view.suite?.id ?? 'no runs'}`, renderIndexBody(view, agentPath), ''));
  const methodology = renderMethodologyBody({ suite: input.suite, view, runs, isPrivate, ...(input.workers ? { workers: input.workers } : {}), ...(input.toolPolicy ? { toolPolicy: input.toolPolicy } : {}) });
  files.set('methodology.html', page(`How the ${view.suite?.id ?? input.suite.id} bake is run`, methodology, ''));
  files.set('matrix.html', page('Task × agent', renderMatrixBody(view, agentPath, names.tasks), ''));
  const pair = view.agents.length >= 2 ? `${view.agents[0]!.agent.id} vs ${view.agents[1]!.agent.id}` : 'none';
  files.set('compare.html', page(`Paired comparison: ${pair}`, renderCompareBody(input.comparison, names.tasks), ''));
  for (const agent of view.agents) {
    const own = runs.filter((r) => r.agent.id === agent.agent.id);
    const body = renderAgentBody(view, agent, own, names, input.costByClass?.get(agent.agent.id));
    files.set(agentPath(agent.agent.id), page(`Agent ${agent.agent.id}`, body, '../'));
  }
  for (const run of runs) {
    const body = renderRunBody({ run, names, agentHref: `../${agentPath(run.agent.id)}`, detail: input.privateDetail?.get(run.id) });
    files.set(names.runPath(run), page(`Run ${names.runName(run)} (${names.tasks.text(run.task)}, ${run.agent.id})`, body, '../'));
  }
  return files;
}

