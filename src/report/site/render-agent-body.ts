import type { RunRecord } from '../../types.js';
import { formatDuration, formatShare, formatUsd } from '../render/format-cells.js';
import { formatReplayRule } from '../render/format-replay-rule.js';
import type { AgentSummary, LeaderboardView } from '../view/leaderboard-view.js';
import { escapeHtml } from './escape-html.js';
import { outcomeCell } from './render-run-body.js';

/**
 * The body of `agents/<slug>.html`: the agent's identity (harness, version, model, effort), its
 * numbers, its void reasons and void tasks, replay agreement, and its runs linking to run pages.
 * Void task details are shown only for replay drift (the others may quote tool output). Pure.
 *
 * @param runHref the link of a run page, relative to the agent page
 */
export function renderAgentBody(view: LeaderboardView, agent: AgentSummary, runs: readonly RunRecord[], runHref: (id: string) => string): string {
  const a = agent.agent;
  const facts: [string, string][] = [
    ['agent id', a.id],
    ['harness', a.harness],
    ['version', a.version ?? '–'],
    ['model', a.model ?? '–'],
    ['effort', a.effort ?? '–'],
    ['rank', agent.rank === null ? '– (not ranked)' : String(agent.rank)],
    ['runs', `${agent.runs} (${agent.solved} solved, ${agent.failed} failed, ${agent.void} void)${agent.runCountTag ? `, ${agent.runCountTag}` : ''}`],
    ['share solved [95% CI]', formatShare(agent.solveShare, agent.ci95)],
    ['cost per fix', formatUsd(agent.costPerFixUsd)],
    ['median time per run', formatDuration(agent.medianRunSec)],
  ];
  const voidReasons = Object.entries(agent.voidByReason).map(([r, n]) => `<li>${escapeHtml(`${r}: ${n} run(s)`)}</li>`);
  const voidTasks = agent.voidTasks.map(
    (t) => `<li>${escapeHtml(`${t.task}: ${t.reason}${t.reason === 'replay-drift' ? ` (${t.detail})` : ''}`)}</li>`,
  );
  const replay = agent.replay === null
    ? `<p>${escapeHtml(formatReplayRule(view.replayRule))}: agreement not judged.</p>`
    : `<p>${escapeHtml(`${formatReplayRule(view.replayRule)}: replays agree on ${agent.replay.agreeing} of ${agent.replay.compared} tasks compared.`)}</p>`;
  const sorted = [...runs].sort((x, y) => (x.task < y.task ? -1 : x.task > y.task ? 1 : x.replay - y.replay));
  const rows = sorted.map(
    (r) =>
      `<tr><td><a class="run-link" href="${escapeHtml(runHref(r.id))}">${escapeHtml(r.id)}</a></td><td>${escapeHtml(r.task)}</td><td class="num">${r.replay + 1}</td>` +
      `<td>${outcomeCell(r)}</td><td class="num">${escapeHtml(formatDuration(r.agentSec))}</td><td class="num">${r.points}/${r.maxPoints}</td><td class="num">${r.linesAdded + r.linesRemoved}</td></tr>`,
  );
  return [
    `<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`,
    `<h2>Void reasons</h2>${voidReasons.length === 0 ? '<p>No void runs.</p>' : `<ul>${voidReasons.join('')}</ul>`}`,
    ...(voidTasks.length > 0 ? [`<h3>Void tasks</h3><ul>${voidTasks.join('')}</ul>`] : []),
    `<h2>Replay agreement</h2>${replay}`,
    `<h2>Runs</h2><table class="runs"><thead><tr><th>run</th><th>task</th><th class="num">replay</th><th>outcome</th><th class="num">time</th><th class="num">points</th><th class="num">lines</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}
