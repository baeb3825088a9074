import type { RunRecord } from '../../types.js';
import { formatDuration, formatTokens, formatUsd } from '../render/format-cells.js';
import { escapeHtml } from './escape-html.js';
import { renderRunDetail } from './render-run-detail.js';
import type { PrivateOrderDetail } from './site-input.js';
import type { SiteNames } from './site-names.js';
import type { RunFailure } from '../view/classify-failure.js';
import { FAILURE_CLASS_INFO } from '../view/failure-classes.js';

/** `solved`, `failed (tests-failed)`, `void (infra-error)`, coloured; never the outcome's detail text. */
export function outcomeCell(run: RunRecord): string {
  const o = run.outcome;
  const text = o.kind === 'solved' ? 'solved' : `${o.kind} (${o.reason})`;
  return `<span class="${o.kind}">${escapeHtml(text)}</span>`;
}

/**
 * `regressions (side: agent; cause pass-to-pass-broken)`, and on a private site its detail (which
 * may name hidden tests or quote the agent's answer).
 */
function failureText(failure: RunFailure, isPrivate: boolean): string {
  const head = `${FAILURE_CLASS_INFO[failure.class].label} (side: ${failure.side}; cause ${failure.cause})`;
  return isPrivate ? `${head}: ${failure.detail}` : head;
}

/** Options of {@link renderRunBody}. */
export interface RunBodyOptions {
  readonly run: RunRecord;
  /** What the site calls the run and its task. */
  readonly names: SiteNames;
  /** Link to the agent's page, relative to the run page. */
  readonly agentHref: string;
  /**
   * A private site only: the outcome's detail and, per order, the prompt and session, the
   * change, the test results, time and model requests, and the raw logs.
   */
  readonly detail?: readonly PrivateOrderDetail[] | undefined;
  /** Why the run was not solved (the view's failure anatomy); absent when solved. */
  readonly failure?: RunFailure | undefined;
}

/**
 * The body of `runs/<name>.html`: the task (its label, and its public summary when it has one),
 * outcome and reason, time, points per order, lines, tokens and cost. With `detail` (a private
 * site only) also the run id and what `renderRunDetail` draws: the outcome's detail and, per
 * order, the session as a transcript, the change as a diff, the test results, time and model
 * requests. Pure.
 */
export function renderRunBody(options: RunBodyOptions): string {
  const { run, names, agentHref, detail, failure } = options;
  const o = run.outcome;
  const summary = names.tasks.label(run.task).summary;
  const facts: [string, string][] = [
    [names.tasks.isPrivate ? 'run id' : 'run', names.runName(run)],
    ['task', names.tasks.text(run.task)],
    ['replay (counted from 0)', String(run.replay)],
    ['outcome', o.kind],
    ['reason', o.kind === 'solved' ? '–' : o.reason],
    ...(failure ? [['why not solved', failureText(failure, detail !== undefined)] as [string, string]] : []),
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
    ...(summary === null ? [] : [`<p class="task-summary">${escapeHtml(summary)}</p>`]),
    `<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td${k === 'outcome' ? ` class="${o.kind}"` : ''}>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`,
    `<h2>Points per order</h2><table class="orders"><thead><tr><th class="num">order</th><th class="num">points</th></tr></thead><tbody>${orders.join('')}</tbody></table>`,
    detail === undefined
      ? '<p class="context">Public site: the prompt, the session, the change and the test results are not published.</p>'
      : renderRunDetail(run, detail),
  ].join('\n');
}
