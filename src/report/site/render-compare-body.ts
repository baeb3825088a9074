import type { ComparePairedResult } from '../view/compare-paired.js';
import { mddParts, resultCell } from '../render/render-comparison.js';
import { escapeHtml } from './escape-html.js';
import { FAILURE_CLASS_INFO, type FailureClass } from '../view/failure-classes.js';
import type { TaskNames } from './task-labels.js';

/**
 * The body of `compare.html`: the paired comparison of the top two agents (wins, ties, void,
 * exact McNemar p, mean paired difference, the minimum detectable difference and whether the
 * gap is inside it, per task named as `tasks` says), or a note saying
 * why there is none. Pure.
 */
export function renderCompareBody(result: ComparePairedResult | null, tasks: TaskNames): string {
  if (result === null) return '<p class="note">No paired comparison: fewer than two agents.</p>';
  if (!result.ok) return `<p class="note">No paired comparison: ${escapeHtml(result.reason)}</p>`;
  const c = result.comparison;
  const pct = (x: number | null): string => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
  const diff = c.meanDifference === null ? '–' : `${(c.meanDifference * 100).toFixed(1)} points${c.ci95 ? ` [${(c.ci95.low * 100).toFixed(1)}, ${(c.ci95.high * 100).toFixed(1)}]` : ''}`;
  const facts: [string, string][] = [
    ['A', c.a], ['B', c.b], ['tasks', String(c.tasks)], ['A wins', String(c.aWins)], ['B wins', String(c.bWins)],
    ['ties', String(c.ties)], ['void', String(c.void)], ['exact McNemar p', c.pValue.toFixed(3)],
    ['mean difference A − B [95% CI]', diff],
    ...(c.intervalNote ? [['why the interval is a point', c.intervalNote] as [string, string]] : []),
    ['minimum detectable difference', `${mddParts(c).value} (80% power, α = 0.05, ${c.power.tasks} tasks; ${mddParts(c).how})`],
  ];
  const why = (classes: readonly FailureClass[]): string => (classes.length === 0 ? '' : `<span class="sub">${escapeHtml(classes.map((cls) => FAILURE_CLASS_INFO[cls].label).join(', '))}</span>`);
  const rows = c.perTask.map(
    (t) => `<tr><td>${tasks.html(t.task)}</td><td>${escapeHtml(resultCell(c, t))}</td><td class="num">${escapeHtml(t.aVoid ?? pct(t.aShare))}${why(t.aFailures)}</td><td class="num">${escapeHtml(t.bVoid ?? pct(t.bShare))}${why(t.bFailures)}</td></tr>`,
  );
  const failureRows = c.failures.differences.map(
    (d) => `<tr${d.a === d.b ? '' : ' class="differs"'}><th scope="row">${escapeHtml(FAILURE_CLASS_INFO[d.class].label)}</th><td>${escapeHtml(FAILURE_CLASS_INFO[d.class].side)}</td><td class="num">${d.a}</td><td class="num">${d.b}</td><td class="num">${d.a === d.b ? '' : escapeHtml(`${d.a > d.b ? '+' : '−'}${Math.abs(d.a - d.b)}`)}</td></tr>`,
  );
  const failures = failureRows.length === 0
    ? '<h2>Why runs were not solved</h2><p>Every run of both agents solved.</p>'
    : `<h2>Why runs were not solved</h2><table class="failure-diff"><thead><tr><th scope="col">class</th><th scope="col">side</th><th scope="col" class="num">${escapeHtml(c.a)}</th><th scope="col" class="num">${escapeHtml(c.b)}</th><th scope="col" class="num">A − B</th></tr></thead><tbody>${failureRows.join('')}</tbody></table>`;
  return [
    `<p>${escapeHtml(c.sentence)}</p>`,
    `<p class="power${c.power.distinguishable ? '' : ' inside'}">${escapeHtml(c.power.sentence)}</p>`,
    ...(c.overVoidLimit ? ['<p class="warn">More void tasks than the void limit: no winner may be declared.</p>'] : []),
    `<table class="facts"><tbody>${facts.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</tbody></table>`,
    failures,
    `<h2>Per task</h2><table class="paired"><thead><tr><th>task</th><th>result</th><th class="num">${escapeHtml(c.a)}</th><th class="num">${escapeHtml(c.b)}</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  ].join('\n');
}

/** A form picking the two agents of the comparison (`compare.html?a=…&b=…`), for pages a server draws. */
export function renderPairPicker(agents: readonly string[], chosen: readonly [string, string] | null): string {
  const select = (name: 'a' | 'b', label: string, value: string | undefined): string =>
    `<label>${label} <select name="${name}">${agents.map((id) => `<option${id === value ? ' selected' : ''}>${escapeHtml(id)}</option>`).join('')}</select></label>`;
  return (
    '<form class="filters" method="get" action="compare.html" aria-label="pick two agents">' +
    select('a', 'agent A', chosen?.[0] ?? agents[0]) +
    select('b', 'agent B', chosen?.[1] ?? agents[1]) +
    '<button type="submit">compare</button></form>'
  );
}
