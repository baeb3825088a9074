import { formatRank } from '../render/format-rank.js';
import { median } from '../stats/median.js';
import type { RunRecord } from '../../types.js';
import { formatCount, formatDuration, formatShare, formatUsd } from '../render/format-cells.js';
import { formatReplayRule } from '../render/format-replay-rule.js';
import type { AgentSummary, LeaderboardView } from '../view/leaderboard-view.js';
import { escapeHtml } from './escape-html.js';
import { renderHistogram } from './render-histogram.js';
import { outcomeCell } from './render-run-body.js';
import { modelAccess, settingsText, SUBSCRIPTION_ACCESS } from './model-access.js';
import type { CostByClass } from './site-input.js';
import type { SiteNames } from './site-names.js';
import { renderFailureBar } from './render-failure-bar.js';
import type { RunFailure } from '../view/classify-failure.js';
import { FAILURE_CLASS_INFO, FAILURE_CLASSES } from '../view/failure-classes.js';

/**
 * The body of `agents/<slug>.html`: the agent's identity (harness, version, model, effort, how it
 * reached its model, its settings), its numbers, its void reasons and void tasks, replay
 * agreement, and its runs linking to run pages.
 * Void task details are shown only for replay drift (the others may quote tool output); tasks
 * and runs are named as `names` says (no task id on a public site). Pure.
 */
export function renderAgentBody(view: LeaderboardView, agent: AgentSummary, runs: readonly RunRecord[], names: SiteNames, costByClass?: CostByClass): string {
  const a = agent.agent;
  const facts: [string, string][] = [
    ['agent id', a.id],
    ['harness', a.harness],
    ['version', a.version ?? '–'],
    ['model', a.model ?? '–'],
    ['effort', `${a.effort ?? '–'}${agent.effortRequested === null ? '' : ` (asked: ${agent.effortRequested})`}`],
    ['model access', `${modelAccess(a, view.metering.upstreams)}${a.auth === 'subscription' && a.plan ? `, plan ${a.plan}` : ''}`],
    ['settings', settingsText(a)],
    ...webFacts(view, agent),
    ['rank', agent.rank === null ? '– (not ranked)' : `${formatRank(agent)}${agent.tied ? ' (tied)' : ''}`],
    ['runs', `${agent.runs} (${agent.solved} solved, ${agent.failed} failed, ${agent.void} void)${agent.runCountTag ? `, ${agent.runCountTag}` : ''}`],
    ['share solved [95% CI]', formatShare(agent.solveShare, agent.ci95)],
    ['cost per fix', formatUsd(agent.costPerFixUsd)],
    ['median time per run', formatDuration(agent.medianRunSec)],
  ];
  const voidReasons = Object.entries(agent.voidByReason).map(([r, n]) => `<li>${escapeHtml(`${r}: ${n} run(s)`)}</li>`);
  const voidTasks = agent.voidTasks.map(
    (t) => `<li>${names.tasks.html(t.task)}: ${escapeHtml(`${t.reason}${t.reason === 'replay-drift' ? ` (${t.detail})` : ''}`)}</li>`,
  );
  const written = formatReplayRule(view.replayRule);
  const rule = `${written.charAt(0).toUpperCase()}${written.slice(1)}`;
  const replay = agent.replay === null
    ? `<p>${escapeHtml(rule)}: agreement not judged.</p>`
    : `<p>${escapeHtml(`${rule}: replays agree on ${agent.replay.agreeing} of ${agent.replay.compared} tasks compared.`)}</p>`;
  const sorted = [...runs].sort((x, y) => (x.task < y.task ? -1 : x.task > y.task ? 1 : x.replay - y.replay));
  // one column for the run: its page named by task number and replay (the page's own name repeats the agent), the task's
  // label under it; a phone then sees outcome, time, points and lines beside it
  const rows = sorted.map(
    (r) =>
      `<tr><td class="run"><a class="run-link" href="../${escapeHtml(names.runPath(r))}">task ${names.tasks.label(r.task).number}, replay ${r.replay}</a>` +
      `<span class="sub">${names.tasks.html(r.task)}</span>${names.tasks.isPrivate ? `<span class="sub">run <code>${escapeHtml(names.runName(r))}</code></span>` : ''}</td>` +
      `<td>${outcomeCell(r)}${failureSub(view.failureAnatomy.runs[r.id])}</td><td class="num">${escapeHtml(formatDuration(r.agentSec))}</td><td class="num">${r.points}/${r.maxPoints}</td><td class="num">${r.linesAdded + r.linesRemoved}</td></tr>`,
  );
  return [
    `<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`,
    renderAgentFailures(agent),
    `<h2>Void reasons</h2>${voidReasons.length === 0 ? '<p>No void runs.</p>' : `<ul>${voidReasons.join('')}</ul>`}`,
    ...(voidTasks.length > 0 ? [`<h3>Void tasks</h3><ul>${voidTasks.join('')}</ul>`] : []),
    `<h2>Replay agreement</h2>${replay}`,
    `<h2>Repeats: pass@k and pass^k</h2>${renderRepeats(agent)}`,
    renderRunCharts(runs),
    renderTokens(view, agent, runs, costByClass),
    `<h2>Runs</h2><table class="runs"><thead><tr><th title="replays counted from 0, as in report.json">run and task</th><th>outcome</th><th class="num">time</th><th class="num">points</th><th class="num">lines</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}

/**
 * The agent's runs by failure class: a stacked bar, then a table of each class it has (count,
 * side, what it means). Counts and classes only: a run's detail may name hidden tests or quote
 * the agent, so it stays on the private site's run pages; the runs table names each run's class.
 */
function renderAgentFailures(agent: AgentSummary): string {
  const f = agent.failures;
  if (f.notSolved === 0) return `<h2>Why runs were not solved</h2><p>Every run solved.</p>`;
  const rows = FAILURE_CLASSES.filter((cls) => f.byClass[cls]).map((cls) => {
    const info = FAILURE_CLASS_INFO[cls];
    return `<tr><th scope="row">${escapeHtml(info.label)}</th><td class="num">${f.byClass[cls]}</td><td>${escapeHtml(info.side)}</td><td>${escapeHtml(info.meaning)}</td></tr>`;
  });
  return [
    '<h2>Why runs were not solved</h2>',
    renderFailureBar(agent.runs, agent.runs - f.notSolved, f),
    `<table class="failure-classes"><thead><tr><th scope="col">class</th><th scope="col" class="num">runs</th><th scope="col">side</th><th scope="col">meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}

/** The run's failure class under its outcome, e.g. `regressions (agent)`. */
function failureSub(failure: RunFailure | undefined): string {
  return failure === undefined ? '' : `<span class="sub">${escapeHtml(`${FAILURE_CLASS_INFO[failure.class].label} (${failure.side})`)}</span>`;
}

/**
 * The agent's tool surface on the web (model agents only): the harness's own web tools and the
 * setting that turned them off on the closed web ("tools withheld"), provider-run tools at the
 * proxy, and the web attempts its runs made.
 */
function webFacts(view: LeaderboardView, agent: AgentSummary): [string, string][] {
  const tools = agent.agent.webTools;
  const facts: [string, string][] = [];
  if (tools !== undefined) {
    const own = tools.names.length === 0 ? `none of its own (${tools.switch})` : `its own ${tools.names.join(', ')}`;
    facts.push(
      view.network === 'model-api+web'
        ? ['web tools', `open web: ${tools.names.length === 0 ? own : `${own} kept on`}, and the provider's web tools let through`]
        : ['tools withheld', `${tools.names.length === 0 ? own : `${own}, turned off with ${tools.switch}`}; every provider-run tool (web search and fetch, code execution, hosted MCP …) and URL input, at the metering proxy`],
    );
  }
  if (agent.webAttempts !== null) facts.push(['web attempts', `${agent.webAttempts}${view.network === 'model-api+web' ? ' (let through)' : ' (withheld or refused)'}`]);
  return facts;
}

/** pass@k (one of k attempts solves) and pass^k (all k do), one row per k. */
function renderRepeats(agent: AgentSummary): string {
  if (agent.repeats.length === 0) return '<p>No valid runs.</p>';
  const rows = agent.repeats.map((m) => `<tr><td class="num">${m.k}</td><td class="num">${formatShare(m.passAtK, null)}</td><td class="num">${formatShare(m.passHatK, null)}</td><td class="num">${m.tasks}</td></tr>`);
  return (
    '<p>Unbiased estimators over each task\'s valid runs, averaged over the tasks with at least k of them (Chen et al. 2021).</p>' +
    `<table class="repeats"><thead><tr><th class="num">k</th><th class="num" title="at least one of k runs solves">pass@k</th><th class="num" title="all k runs solve">pass^k</th><th class="num">tasks</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

/**
 * Tokens by class summed over the runs the metering proxy counted, cost of all runs, and model
 * requests per run; how the agent reached its model (an API key, its subscription, or the
 * scripted model of a dry run). Nothing to show for a built-in agent.
 */
function renderTokens(view: LeaderboardView, agent: AgentSummary, runs: readonly RunRecord[], byClass: CostByClass | undefined): string {
  const metered = runs.filter((r) => r.usage);
  if (agent.agent.harness === 'builtin') return '<h2>Tokens and cost</h2><p>A built-in agent: no model, no tokens, no cost.</p>';
  const scripted = view.metering.upstreams.length > 0 && view.metering.upstreams.every((u) => u.startsWith('scripted:'));
  const through = `through bakeoff's metering proxy (${view.metering.upstreams.join(', ') || 'model API not recorded'})`;
  const auth = agent.agent.auth === 'subscription'
    ? `${SUBSCRIPTION_ACCESS}${agent.agent.plan ? ` on the ${agent.agent.plan} plan` : ''}, ${through}${scripted ? ': a dry run' : ''}`
    : scripted ? `bakeoff's scripted model (${view.metering.upstreams.join(', ')}): a dry run` : `API key, ${through}`;
  if (metered.length === 0) return `<h2>Tokens and cost</h2><p>${escapeHtml(`Model access: ${auth}. No run has metered tokens.`)}</p>`;
  const sum = (pick: (u: NonNullable<RunRecord['usage']>) => number): number => metered.reduce((n, r) => n + pick(r.usage!), 0);
  const input = sum((u) => u.inputTokens);
  const cacheRead = sum((u) => u.cacheReadTokens);
  const cacheWrite = sum((u) => u.cacheWriteTokens);
  const rows: [string, number, number | null][] = [
    ['input, uncached', input - cacheRead - cacheWrite, byClass?.input ?? null],
    ['input, cache read', cacheRead, byClass?.cacheRead ?? null],
    ['input, cache write', cacheWrite, byClass?.cacheWrite ?? null],
    ['output (reasoning included)', sum((u) => u.outputTokens), byClass?.output ?? null],
    ['of which reasoning', sum((u) => u.reasoningTokens), null],
  ];
  const requests = metered.map((r) => r.usage!.requests).sort((a, b) => a - b);
  const medianRequests = median(requests);
  const cost = agent.costUsd === null ? 'no cost data' : `${formatUsd(agent.costUsd)} over ${agent.runsWithCost} of ${agent.runs} runs`;
  return [
    '<h2>Tokens and cost</h2>',
    `<p>${escapeHtml(`Model access: ${auth}. Metered over ${metered.length} of ${runs.length} runs; cost ${cost}; model requests per run: median ${medianRequests}, ${requests[0]}–${requests.at(-1)}.`)}</p>`,
    `<table class="tokens"><caption>Tokens by class, all runs${byClass ? `; cost at list price (${escapeHtml(byClass.source)})` : ''}</caption><thead><tr><th scope="col">class</th><th scope="col" class="num">tokens</th>${byClass ? '<th scope="col" class="num">cost at list price</th>' : ''}</tr></thead><tbody>${rows
      .map(([k, n, usd]) => `<tr><th scope="row">${escapeHtml(k)}</th><td class="num">${n.toLocaleString('en-US')}</td>${byClass ? `<td class="num">${usd === null ? '' : escapeHtml(formatUsd(usd))}</td>` : ''}</tr>`)
      .join('')}</tbody></table>`,
    ...(byClass ? ['<p class="context">The cost column splits the metered tokens at the catalog\'s list price of the model on each run\'s day; the cost above is what each run recorded (the provider\'s charge where it gave one, or a prices file\'s rates).</p>'] : []),
  ].join('\n');
}

/** Histograms of time and lines to review per run, over the runs that are not void (as the medians are). */
function renderRunCharts(runs: readonly RunRecord[]): string {
  const valid = runs.filter((r) => r.outcome.kind !== 'void');
  const note = valid.length < runs.length ? 'void runs left out' : '';
  return [
    '<h2>Time and lines per run</h2><div class="charts">',
    renderHistogram({ title: 'time per run', xLabel: 'agent time', values: valid.map((r) => r.agentSec), format: formatDuration, note }),
    renderHistogram({ title: 'lines to review per run', xLabel: 'lines added + removed', values: valid.map((r) => r.linesAdded + r.linesRemoved), format: formatCount, note, integers: true }),
    '</div>',
  ].join('\n');
}

