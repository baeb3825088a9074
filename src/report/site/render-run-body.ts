import type { RunRecord } from '../../types.js';
import { formatDuration, formatTokens, formatUsd } from '../render/format-cells.js';
import { escapeHtml } from './escape-html.js';
import type { PrivateOrderDetail } from './site-input.js';

/** `solved`, `failed (tests-failed)`, `void (infra-error)`, coloured; never the outcome's detail text. */
export function outcomeCell(run: RunRecord): string {
  const o = run.outcome;
  const text = o.kind === 'solved' ? 'solved' : `${o.kind} (${o.reason})`;
  return `<span class="${o.kind}">${escapeHtml(text)}</span>`;
}

/**
 * The body of `runs/<run-id>.html`: outcome and reason, time, points per order, lines, tokens
 * and cost. With `detail` (a private site only) also the outcome's detail and, per order, the
 * change as a diff, the agent's output and the test output. Pure.
 *
 * @param agentHref link to the agent's page, relative to the run page
 */
export function renderRunBody(run: RunRecord, agentHref: string, detail?: readonly PrivateOrderDetail[]): string {
  const o = run.outcome;
  const facts: [string, string][] = [
    ['run id', run.id],
    ['task', run.task],
    ['replay', String(run.replay + 1)],
    ['outcome', o.kind],
    ['reason', o.kind === 'solved' ? '–' : o.reason],
    ['agent time', formatDuration(run.agentSec)],
    ['grading time', formatDuration(run.gradeSec)],
    ['points', `${run.points}/${run.maxPoints}`],
    ['lines added / removed', `${run.linesAdded} / ${run.linesRemoved}`],
    ['tokens in / out', `${formatTokens(run.tokensIn)} / ${formatTokens(run.tokensOut)}`],
    ['cost', formatUsd(run.costUsd)],
    ['seed / level', `${run.seed ?? '–'} / ${run.level ?? '–'}`],
    ['started / finished', `${run.startedAt} / ${run.finishedAt}`],
  ];
  const orders = run.orders.map((x) => `<tr><td class="num">${x.order}</td><td class="num">${x.points}/${x.maxPoints}</td></tr>`);
  return [
    `<p>agent: <a class="agent-link" href="${escapeHtml(agentHref)}">${escapeHtml(run.agent.id)}</a></p>`,
    `<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td${k === 'outcome' ? ` class="${o.kind}"` : ''}>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`,
    `<h2>Points per order</h2><table class="orders"><thead><tr><th class="num">order</th><th class="num">points</th></tr></thead><tbody>${orders.join('')}</tbody></table>`,
    detail === undefined ? '<p class="context">Public site: the change, the agent\'s output and the test output are not published.</p>' : renderPrivate(run, detail),
  ].join('\n');
}

function renderPrivate(run: RunRecord, detail: readonly PrivateOrderDetail[]): string {
  const block = (title: string, text: string | null): string =>
    `<h3>${escapeHtml(title)}</h3>${text === null ? '<p>(not stored)</p>' : `<pre>${escapeHtml(text)}</pre>`}`;
  const outcomeDetail = run.outcome.kind !== 'solved' && run.outcome.detail ? `<h2>Outcome detail</h2><pre>${escapeHtml(run.outcome.detail)}</pre>` : '';
  return [
    outcomeDetail,
    ...detail.map((d) =>
      [`<h2>Order ${d.order}</h2>`, block('change (diff)', d.patch), block('agent output', d.agentLog), block('test output', d.testOutput)].join('\n'),
    ),
  ].join('\n');
}
