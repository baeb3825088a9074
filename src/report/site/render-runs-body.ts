import type { RunRecord } from '../../types.js';
import { formatDuration, formatUsd } from '../render/format-cells.js';
import { escapeHtml } from './escape-html.js';
import type { SiteNames } from './site-names.js';

/** What a row of the runs list says of a run's outcome: `solved`, `failed`, `void`. */
function reasonOf(run: RunRecord): string {
  return run.outcome.kind === 'solved' ? '' : run.outcome.reason;
}

/**
 * The body of `runs.html`: every run in one table (task, agent, replay, outcome and reason,
 * time, lines to review, cost), each linking to its page, with a filter form — by agent, task,
 * outcome, reason, and text — that narrows the rows in the page (FILTER_SCRIPT); the filters
 * start from the page's query string (`runs.html?task=…&agent=…`, as the matrix links), and
 * stay in it. Where the page is served by `bakeoff view`, the text is also searched on the
 * server, over prompts, transcripts, logs and test output. Pure.
 */
export function renderRunsBody(runs: readonly RunRecord[], names: SiteNames): string {
  const sorted = [...runs].sort((a, b) => compare(names.tasks.text(a.task), names.tasks.text(b.task)) || compare(a.agent.id, b.agent.id) || a.replay - b.replay);
  const values = (pick: (run: RunRecord) => string): string[] => [...new Set(sorted.map(pick))].filter((v) => v !== '').sort(compare);
  const select = (name: string, label: string, options: readonly string[]): string =>
    `<label>${escapeHtml(label)} <select name="${name}"><option value="">all</option>${options.map((o) => `<option>${escapeHtml(o)}</option>`).join('')}</select></label>`;
  const form = [
    '<form class="filters" role="search" aria-label="filter the runs">',
    select('agent', 'agent', values((r) => r.agent.id)),
    select('task', 'task', values((r) => names.tasks.text(r.task))),
    select('outcome', 'outcome', values((r) => r.outcome.kind)),
    select('reason', 'reason', values(reasonOf)),
    '<label>text <input type="search" name="q" autocomplete="off" placeholder="in the runs’ text"></label>',
    '</form>',
    `<p class="count" role="status" aria-live="polite"><span class="shown">${sorted.length}</span> of ${sorted.length} runs</p>`,
  ].join('');
  const rows = sorted.map((run) => {
    const name = names.runName(run);
    const data = [
      ['run', name],
      ['agent', run.agent.id],
      ['task', names.tasks.text(run.task)],
      ['outcome', run.outcome.kind],
      ['reason', reasonOf(run)],
    ]
      .map(([k, v]) => `data-${k}="${escapeHtml(v!)}"`)
      .join(' ');
    const outcome = run.outcome.kind === 'solved' ? 'solved' : `${run.outcome.kind} (${run.outcome.reason})`;
    return (
      `<tr ${data}><td class="run"><a class="run-link" href="${escapeHtml(names.runPath(run))}">${escapeHtml(name)}</a></td>` +
      `<td>${names.tasks.html(run.task)}</td><td>${escapeHtml(run.agent.id)}</td><td class="num">${run.replay}</td>` +
      `<td class="${run.outcome.kind}">${escapeHtml(outcome)}</td><td class="num">${escapeHtml(formatDuration(run.agentSec))}</td>` +
      `<td class="num">${run.linesAdded + run.linesRemoved}</td><td class="num">${escapeHtml(formatUsd(run.costUsd))}</td></tr>`
    );
  });
  const head = ['run', 'task', 'agent', 'replay', 'outcome', 'time', 'lines', 'cost']
    .map((h) => `<th${['replay', 'time', 'lines', 'cost'].includes(h) ? ' class="num"' : ''}>${h}</th>`)
    .join('');
  return `${form}<table class="runs run-list"><thead><tr>${head}</tr></thead><tbody>${rows.join('\n')}</tbody></table><script>${FILTER_SCRIPT}</script>`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Narrows the rows of `table.run-list` to those matching every filter: the selects by their
 * row's data attribute, the text by the row's text — and, when the page is served by
 * `bakeoff view` (`window.BAKEOFF_SEARCH` set), by the run names the server finds the text in.
 * Filters come from and go to the query string. `window.bakeoffFilter` applies them again
 * (the live view calls it after it puts new rows in).
 */
const FILTER_SCRIPT = `
(function(){
  var form = document.querySelector('form.filters');
  var shown = document.querySelector('p.count .shown');
  var params = new URLSearchParams(location.search);
  var found = null, asked = 0;
  Array.prototype.forEach.call(form.elements, function(el){ if (el.name && params.has(el.name)) el.value = params.get(el.name); });
  function apply(){
    var rows = Array.prototype.slice.call(document.querySelectorAll('table.run-list tbody tr'));
    var want = {}, n = 0, query = new URLSearchParams();
    Array.prototype.forEach.call(form.elements, function(el){ if (el.name && el.value) { want[el.name] = el.value; query.set(el.name, el.value); } });
    rows.forEach(function(row){
      var ok = ['agent','task','outcome','reason'].every(function(k){ return !want[k] || row.getAttribute('data-' + k) === want[k]; });
      if (ok && want.q) ok = row.textContent.toLowerCase().indexOf(want.q.toLowerCase()) >= 0 || (found !== null && found.has(row.getAttribute('data-run')));
      row.hidden = !ok; if (ok) n++;
    });
    shown.textContent = String(n);
    var qs = query.toString();
    history.replaceState(null, '', qs ? '?' + qs : location.pathname);
  }
  function search(){
    var q = form.elements.q.value;
    if (!window.BAKEOFF_SEARCH || !q) { found = null; apply(); return; }
    var mine = ++asked;
    fetch(window.BAKEOFF_SEARCH + '?q=' + encodeURIComponent(q)).then(function(r){ return r.json(); }).then(function(body){
      if (mine !== asked) return;
      found = new Set(body.runs); apply();
    });
  }
  window.bakeoffFilter = apply;
  form.addEventListener('change', apply);
  form.addEventListener('submit', function(e){ e.preventDefault(); search(); });
  var timer;
  form.elements.q.addEventListener('input', function(){ clearTimeout(timer); apply(); timer = setTimeout(search, 250); });
  apply();
  if (form.elements.q.value) search();
})();
`;
