import type { LeaderboardView } from '../../view/leaderboard-view.js';
import { escapeBreakable, escapeHtml } from '../escape-html.js';
import { modelAccess } from '../model-access.js';
import { methodologySections, type MethodologyInput } from './methodology-sections.js';
import { renderOwnerMarkdown } from './render-owner-markdown.js';

/**
 * The body of `methodology.html`: bakeoff's sections written from the suite, the controls and
 * the runs (see {@link methodologySections}), the agents as a table, and the owner's
 * methodology.md under "In the owner's words". Pure.
 */
export function renderMethodologyBody(input: MethodologyInput): string {
  const sections = methodologySections(input).map((s) => {
    const extra = s.id === 'agents' ? agentTable(input.view) : '';
    return `<section id="${s.id}" aria-labelledby="${s.id}-h"><h2 id="${s.id}-h">${escapeHtml(s.heading)}</h2>\n${s.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}${extra}</section>`;
  });
  const contents = methodologySections(input).map((s) => `<li><a href="#${s.id}">${escapeHtml(s.heading)}</a></li>`);
  const owner = input.suite.methodology;
  if (owner !== null) {
    sections.push(`<section id="owner" aria-labelledby="owner-h" class="owner"><h2 id="owner-h">In the owner's words</h2>\n${renderOwnerMarkdown(owner)}</section>`);
    contents.push(`<li><a href="#owner">In the owner's words</a></li>`);
  }
  return `<nav aria-label="sections" class="contents"><ol>${contents.join('')}</ol></nav>\n${sections.join('\n')}`;
}

function agentTable(view: LeaderboardView): string {
  const rows = view.agents.map((a) => {
    const auth = modelAccess(a.agent, view.metering.upstreams);
    const cells = [a.agent.id, a.agent.harness, a.agent.version ?? '–', a.agent.model ?? '–', a.agent.effort ?? '–', auth, String(a.runs)];
    const last = cells.length - 1;
    return `<tr>${cells.map((c, i) => (i === 0 ? `<th scope="row">${escapeBreakable(c)}</th>` : `<td${i === last ? ' class="num"' : ''}>${escapeHtml(c)}</td>`)).join('')}</tr>`;
  });
  const head = ['agent', 'harness', 'version', 'model', 'effort', 'auth', 'runs'].map((h) => `<th scope="col"${h === 'runs' ? ' class="num"' : ''}>${h}</th>`).join('');
  return `<div class="scroll" role="region" aria-label="agents" tabindex="0"><table class="agents"><caption>The agents as recorded with their first run</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}
