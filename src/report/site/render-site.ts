import { slugify } from './escape-html.js';
import { renderAgentBody } from './render-agent-body.js';
import { renderCompareBody } from './render-compare-body.js';
import { renderIndexBody } from './render-index-page.js';
import { renderMatrixBody } from './render-matrix-body.js';
import { renderPage } from './render-page.js';
import { renderRunBody } from './render-run-body.js';
import type { SiteInput } from './site-input.js';

/**
 * The static site of a results folder, as files (path relative to the site root → HTML):
 *
 *   index.html            leaderboard (sortable), charts, void and replay tables
 *   matrix.html           task × agent
 *   compare.html          paired comparison of the top two agents (or why there is none)
 *   agents/<slug>.html    one per agent: identity, numbers, void reasons, replay agreement, runs
 *   runs/<run-id>.html    one per run: outcome, reason, time, points per order, lines
 *
 * Every page is self-contained (inline CSS and script, no URL outside the site). Without
 * `privateDetail` no codebase, prompt, hidden test, change or agent output text is drawn;
 * every text is escaped. Pure.
 */
export function renderSite(input: SiteInput): Map<string, string> {
  const { view, runs } = input;
  const slugs = new Map<string, string>();
  for (const a of view.agents) slugs.set(a.agent.id, slugify(a.agent.id, new Set(slugs.values())));
  const agentPath = (id: string): string => `agents/${slugs.get(id) ?? slugify(id, new Set())}.html`;
  const runPath = (id: string): string => `runs/${/^[A-Za-z0-9_-]+$/.test(id) ? id : slugify(id, new Set())}.html`;
  const page = (title: string, body: string, root: '' | '../'): string =>
    renderPage({ title, body, root, view, generatedAt: input.generatedAt, isPrivate: input.privateDetail !== undefined });

  const files = new Map<string, string>();
  files.set('index.html', page(`Leaderboard: ${view.suite?.id ?? 'no runs'}`, renderIndexBody(view, agentPath), ''));
  files.set('matrix.html', page('Task × agent', renderMatrixBody(view, agentPath), ''));
  const pair = view.agents.length >= 2 ? `${view.agents[0]!.agent.id} vs ${view.agents[1]!.agent.id}` : 'none';
  files.set('compare.html', page(`Paired comparison: ${pair}`, renderCompareBody(input.comparison), ''));
  for (const agent of view.agents) {
    const own = runs.filter((r) => r.agent.id === agent.agent.id);
    const body = renderAgentBody(view, agent, own, (id) => `../${runPath(id)}`);
    files.set(agentPath(agent.agent.id), page(`Agent ${agent.agent.id}`, body, '../'));
  }
  for (const run of runs) {
    const body = renderRunBody(run, `../${agentPath(run.agent.id)}`, input.privateDetail?.get(run.id));
    files.set(runPath(run.id), page(`Run ${run.id} (${run.task}, ${run.agent.id})`, body, '../'));
  }
  return files;
}

