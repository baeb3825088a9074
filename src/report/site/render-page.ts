import { describeRulesShort } from '../render/describe-rules.js';
import { unsafeWarning } from '../render/format-cells.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';
import { escapeHtml } from './escape-html.js';
import { wrapTables } from './wrap-tables.js';
import { FAILURE_BAR_CSS } from './render-failure-bar.js';

/** One page of the site: its title, body HTML, and how deep it sits below the site root. */
export interface PageOptions {
  readonly title: string;
  /** Already-escaped HTML. */
  readonly body: string;
  /** `''` at the root, `'../'` in `agents/` and `runs/`: prefix of every site-relative link. */
  readonly root: '' | '../';
  readonly view: LeaderboardView;
  readonly generatedAt: string;
  readonly isPrivate: boolean;
  /**
   * A one-file report (`bakeoff report --format html`) rather than a page of the site: no
   * navigation (there are no other pages), `bakeoff report` as generator and in the footer,
   * where `generatedAt` is when the last run finished: the same results give the same bytes.
   */
  readonly standalone?: boolean;
  /** Served by `bakeoff view`: the runs at work now above the content, which follows the results as runs finish (LIVE_SCRIPT). */
  readonly live?: boolean;
}

/** In the head of every page: how `publish` recognises a folder it wrote before. */
export const SITE_MARKER = '<meta name="generator" content="bakeoff publish">';

/** In the head of a one-file report: not a site, so `publish` never takes its folder for one. */
const REPORT_MARKER = '<meta name="generator" content="bakeoff report">';

/*
 * The site's own stylesheet: no framework, nothing loaded. Colours are variables, set for light
 * and for dark (`prefers-color-scheme`), each text colour at least 4.5:1 on its background.
 * Narrow screens: long hashes and ids wrap (agent ids between their parts), the context line
 * becomes two columns, term and value, charts shrink to the width, and tables scroll inside their
 * `.scroll` region (wrap-tables.ts) so the page itself never gets wider than the screen.
 * Print: no navigation, no sort buttons' look, light colours, tables at full length.
 */
const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--border:#d1d9e0;--head:#f6f8fa;--stripe:#f6f8fa;--link:#0550ae;--accent:#0969da;--band:#9ec5f8;--grid:#e6eaef;--solved:#1a7f37;--failed:#cf222e;--void:#8a5c00;--warn-bg:#fff8c5;--warn-border:#d4a72c;--focus:#0969da;--add-bg:#e6ffec;--del-bg:#ffebe9;--hunk-bg:#ddf4ff}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9ea7b3;--border:#3d444d;--head:#151b23;--stripe:#151b23;--link:#58a6ff;--accent:#4493f8;--band:#1f4f8f;--grid:#262c36;--solved:#3fb950;--failed:#ff7b72;--void:#d29922;--warn-bg:#272115;--warn-border:#9e6a03;--focus:#58a6ff;--add-bg:#12261e;--del-bg:#25171c;--hunk-bg:#121d2f}}
*,*::before,*::after{box-sizing:border-box}
html{background:var(--bg);color:var(--fg);-webkit-text-size-adjust:100%}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1400px;padding:0 16px 40px;overflow-wrap:anywhere}
a{color:var(--link)}
a:focus-visible,button:focus-visible,select:focus-visible,input:focus-visible,.scroll:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
header{border-bottom:1px solid var(--border);margin-bottom:8px;padding:10px 0 4px}
header nav{display:flex;flex-wrap:wrap;gap:4px 18px;margin:0 0 8px;font-weight:600}
header nav a{display:inline-block;padding:4px 0}
main p,main li{max-width:80ch}
h1{font-size:1.5rem;line-height:1.25;margin:16px 0 12px}
h2{font-size:1.15rem;margin:28px 0 8px}
h3{font-size:1rem;margin:20px 0 6px}
.scroll{overflow-x:auto;max-width:100%;margin:8px 0}
caption{text-align:left;color:var(--muted);font-size:13px;padding:0 0 4px}
table{border-collapse:collapse;font-size:14px;overflow-wrap:normal;font-variant-numeric:tabular-nums}
th,td{border-bottom:1px solid var(--border);padding:6px 8px;text-align:left;vertical-align:top}
thead th{background:var(--head);border-bottom:2px solid var(--border);vertical-align:bottom}
tbody tr:nth-child(even){background:var(--stripe)}
tbody th{font-weight:600}
table.matrix tbody th{min-width:11em}
td.num{text-align:right;white-space:nowrap}th.num{text-align:right}
.sub{display:block;font-size:12px;color:var(--muted)}
table.facts th{background:var(--head);white-space:nowrap}
table.facts td{overflow-wrap:anywhere}
table.agents td{white-space:nowrap}table.agents tbody th{min-width:12em}
table.runs td.run{min-width:12em}table.runs a.run-link{white-space:nowrap}
form.filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-end;margin:8px 0}
form.filters label{display:flex;flex-direction:column;gap:2px;font-size:13px;color:var(--muted);min-width:0;max-width:100%}
form.filters select,form.filters input{font:inherit;font-size:14px;color:var(--fg);background:var(--bg);border:1px solid var(--border);border-radius:4px;padding:4px 6px;min-width:8em;max-width:100%}
form.filters button{font:inherit;font-size:14px;padding:4px 12px;border:1px solid var(--border);border-radius:4px;background:var(--head);color:var(--fg);cursor:pointer}
p.count{font-size:13px;color:var(--muted)}
table.matrix td a{color:inherit}
button.sort{font:inherit;font-weight:700;color:inherit;background:none;border:0;padding:0;margin:0;cursor:pointer;text-align:inherit;text-decoration:underline dotted;text-underline-offset:3px}
button.sort::after{content:"\\2195" / "";padding-left:2px;color:var(--muted)}
th[aria-sort=ascending] button.sort::after{content:"\\25B2" / "";color:inherit}
th[aria-sort=descending] button.sort::after{content:"\\25BC" / "";color:inherit}
table.leaderboard td:has(> .agent){min-width:9em;overflow-wrap:break-word}
.narrow-only{display:none;font-size:13px;color:var(--muted);margin:4px 0}
.share-text{display:block}
svg.sharebar{display:block;margin:3px 0 0 auto}
.sharebar .track{fill:var(--border)}.sharebar .ci{fill:var(--band)}.sharebar .est{fill:var(--fg)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:0.85em}
pre{background:var(--head);border:1px solid var(--border);padding:8px;overflow:auto;max-height:480px}
.context{font-size:13px;color:var(--muted)}
.context dt{font-weight:600;display:inline;color:var(--fg);white-space:nowrap}
.context dd{display:inline;margin:0 12px 0 4px}
.context details{display:inline}.context summary{display:inline;cursor:pointer;color:var(--link,inherit);text-decoration:underline dotted}.context details[open] code{display:block;margin:4px 0}
.live{border:1px solid var(--border);border-radius:4px;padding:4px 12px;margin:8px 0;font-size:14px}.live p{margin:4px 0;font-weight:600}.live ul{margin:4px 0;padding-left:1.2em}
.warn{background:var(--warn-bg);border:1px solid var(--warn-border);border-radius:4px;padding:8px 12px;margin:8px 0}
.solved{color:var(--solved)}.failed{color:var(--failed)}.void{color:var(--void)}
.charts{display:flex;flex-wrap:wrap;gap:8px 32px}
figure.chart{margin:8px 0 16px;flex:1 1 320px;max-width:480px;min-width:0}
figure.chart figcaption{font-weight:600;margin-bottom:4px}
svg.chart{display:block;width:100%;height:auto}
.chart text{fill:var(--fg);font:12px system-ui,sans-serif}
.chart text.note{fill:var(--muted)}
.chart .grid{stroke:var(--grid)}.chart .axis{stroke:var(--muted)}
.chart .dot,.chart .bar{fill:var(--accent)}
.chart text.key{font-weight:700}
ul.legend{list-style:none;padding:0;margin:4px 0;font-size:13px}
ul.legend li{padding-left:1.6em;text-indent:-1.6em}
ul.legend .key{display:inline-block;min-width:1.6em;text-indent:0;font-weight:700;color:var(--accent)}
p.note{font-size:13px;color:var(--void);margin:4px 0}
figure.chart p.summary{font-size:13px;color:var(--muted);margin:4px 0}
${FAILURE_BAR_CSS}
@media (max-width:600px){body{font-size:14px;padding:0 12px 32px}h1{font-size:1.3rem}dl.context{display:grid;grid-template-columns:auto 1fr;gap:2px 8px}dl.context dd{margin:0}.narrow-only{display:block}}
@media print{
:root{color-scheme:light;--bg:#fff;--fg:#000;--muted:#333;--border:#999;--head:#eee;--stripe:#fff;--link:#000;--accent:#333;--band:#bbb;--grid:#ddd;--solved:#000;--failed:#000;--void:#000;--warn-bg:#fff;--warn-border:#000;--add-bg:#fff;--del-bg:#eee;--hunk-bg:#fff}
header nav{display:none}
body{max-width:none;padding:0;font-size:10pt}
.scroll{overflow:visible}
table{font-size:7.5pt;width:100%}
th,td{padding:2px 3px}
td:not(.num){overflow-wrap:anywhere}
td.num,th.num,thead th{white-space:normal}
.sub{font-size:inherit}
svg.sharebar{display:none}
thead{display:table-header-group}
tr,figure,svg{break-inside:avoid}
button.sort{text-decoration:none}
button.sort::after{display:none}
a{text-decoration:none}
h2,h3{break-after:avoid}
}
`;

/**
 * Sorts a table by a header's button: `th > button.sort` headers, cells with a numeric
 * `data-value` (empty = no value, sorted last either way). A header already sorted ascending
 * sorts descending; any other sorts ascending. The sorted header carries `aria-sort`, the others
 * none. A button is a button, so a click, Enter and Space all sort. Table regions and `<pre>`
 * blocks (a private site's diffs and logs) are in the tab order exactly while they have something
 * to scroll, so a keyboard can scroll them.
 */
const SORT_SCRIPT = `
document.addEventListener('click', function(event){
  var button = event.target.closest && event.target.closest('table.sortable th > button.sort');
  if (!button) return;
  var th = button.parentNode, table = th.closest('table');
  var col = Array.prototype.indexOf.call(th.parentNode.children, th);
  var asc = th.getAttribute('aria-sort') !== 'ascending';
  table.querySelectorAll('th[aria-sort]').forEach(function(h){ h.removeAttribute('aria-sort'); });
  th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  rows.sort(function(a, b){
    var x = a.cells[col].getAttribute('data-value'), y = b.cells[col].getAttribute('data-value');
    if (x === '' || x === null) return (y === '' || y === null) ? 0 : 1;
    if (y === '' || y === null) return -1;
    return asc ? Number(x) - Number(y) : Number(y) - Number(x);
  });
  rows.forEach(function(r){ body.appendChild(r); });
});
function fitRegions(){
  document.querySelectorAll('div.scroll, pre').forEach(function(region){
    if (region.scrollWidth > region.clientWidth || region.scrollHeight > region.clientHeight) region.setAttribute('tabindex', '0');
    else region.removeAttribute('tabindex');
  });
}
fitRegions();
window.addEventListener('resize', fitRegions);
`;

/**
 * For pages served by `bakeoff view`: every 2 s asks `api/state` (beside the site root) what
 * runs now and whether the results changed; draws the runs at work in \`#live\` (each with its
 * stage and the stage's clock), and when the results changed fetches the page again and puts
 * its new header and content in place — no reload, the scroll kept; on the runs page only the
 * rows and the filters' choices, so the filters the reader set stay and apply to the new rows.
 */
const LIVE_SCRIPT = `
(function(){
  var root = document.body.getAttribute('data-root') || '';
  window.BAKEOFF_SEARCH = root + 'api/search';
  var region = document.getElementById('live');
  var key = null, state = null;
  function clock(ms){ var s = Math.max(0, Math.round(ms / 1000)); return Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0'); }
  function draw(){
    if (!state || !state.alive) { region.hidden = true; region.textContent = ''; return; }
    region.hidden = false;
    var now = Date.now() - state.skewMs;
    var list = document.createElement('ul');
    state.running.forEach(function(r){
      var li = document.createElement('li');
      li.textContent = r.task + ' × ' + r.agent + ' (replay ' + r.replay + '): ' + (r.stage || 'starting') + ' ' + clock(now - r.sinceMs);
      list.appendChild(li);
    });
    var head = document.createElement('p');
    head.textContent = state.holder + ': ' + state.running.length + (state.running.length === 1 ? ' run' : ' runs') + ' at work' + (state.running.length ? ':' : '');
    region.replaceChildren(head, list);
  }
  function swap(html){
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var header = document.querySelector('header'), fresh = doc.querySelector('header');
    if (header && fresh) header.replaceWith(fresh);
    var tbody = document.querySelector('table.run-list tbody'), newBody = doc.querySelector('table.run-list tbody');
    if (tbody && newBody) {
      tbody.replaceWith(newBody);
      document.querySelectorAll('form.filters select').forEach(function(select){
        var other = doc.querySelector('form.filters select[name="' + select.name + '"]');
        if (other) { var value = select.value; select.innerHTML = other.innerHTML; select.value = value; }
      });
      var total = doc.querySelector('p.count'), count = document.querySelector('p.count');
      if (total && count) count.lastChild.textContent = total.lastChild.textContent;
      if (window.bakeoffFilter) window.bakeoffFilter();
    } else {
      var main = document.querySelector('main'), newMain = doc.querySelector('main');
      if (main && newMain) main.innerHTML = newMain.innerHTML;
    }
    if (typeof fitRegions === 'function') fitRegions();
  }
  function poll(){
    fetch(root + 'api/state', { cache: 'no-store' }).then(function(r){ return r.json(); }).then(function(next){
      next.skewMs = Date.now() - next.nowMs;
      var changed = key !== null && next.key !== key;
      key = next.key; state = next; draw();
      if (changed) return fetch(location.href, { cache: 'no-store' }).then(function(r){ return r.text(); }).then(swap);
    }).catch(function(){}).then(function(){ setTimeout(poll, 2000); });
  }
  setInterval(draw, 1000);
  poll();
})();
`;

/**
 * A whole HTML page: inline CSS and the small sort script (no network: nothing is loaded from
 * anywhere), a navigation bar, and on every page the context every number needs: suite id and
 * hash, controls digest and controls, the void count, the replay rule and void limit.
 */
export function renderPage(options: PageOptions): string {
  const { view, root } = options;
  const warning = unsafeWarning(view.unsafeRuns);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${options.standalone ? REPORT_MARKER : SITE_MARKER}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${CSS}</style>
</head>
<body data-root="${root}">
<header>
${options.standalone ? '' : `<nav aria-label="site"><a href="${root}index.html">leaderboard</a><a href="${root}matrix.html">task × agent</a><a href="${root}runs.html">runs</a><a href="${root}compare.html">paired comparison</a><a href="${root}methodology.html">methodology</a></nav>`}
${renderContext(view)}
${warning ? `<p class="warn">${escapeHtml(warning)}</p>` : ''}
${scriptedWarning(view) ? `<p class="warn">${escapeHtml(scriptedWarning(view)!)}</p>` : ''}
${view.network === 'model-api+web' ? `<p class="warn"><strong>Open web:</strong> ${escapeHtml(OPEN_WEB)}</p>` : ''}
${view.ranking.refused ? `<p class="warn"><strong>Not ranked:</strong> ${escapeHtml(view.ranking.reason)}</p>` : ''}
</header>
${options.live ? '<section id="live" class="live" aria-live="polite" aria-label="runs at work"></section>' : ''}
<main>
<h1>${escapeHtml(options.title)}</h1>
${wrapTables(options.body, escapeHtml(options.title))}
</main>
<footer class="context"><p>Made by bakeoff ${options.standalone ? 'report from the runs finished by' : options.live ? 'view, live; last drawn at' : 'publish at'} ${escapeHtml(options.generatedAt)}${options.isPrivate ? ' — PRIVATE site: contains task ids, prompts, transcripts, changes, test results and agent and test output' : ''}.</p></footer>
<script>${SORT_SCRIPT}</script>${options.live ? `\n<script>${LIVE_SCRIPT}</script>` : ''}
</body>
</html>
`;
}

/** On every page of open-web runs: what they measured, and that they stand apart. */
const OPEN_WEB = 'network: model-api+web — the model API could search and fetch the web for the agents (provider-run tools and URL inputs were let through, each harness kept its own web tools). These runs are never ranked or compared with closed-web runs.';

/** A dry run against the scripted model must never pass for a measurement of real models. */
function scriptedWarning(view: LeaderboardView): string | null {
  const scripted = view.metering.upstreams.filter((u) => u.startsWith('scripted:'));
  return scripted.length ? `Dry run: model agents answered by bakeoff's scripted model (${scripted.join(', ')}), not by real models; tokens and cost are the script's.` : null;
}

/** Suite, hash, controls, void count, replay rule and model API: the context line of every page. */
function renderContext(view: LeaderboardView): string {
  const voidRuns = view.agents.reduce((sum, a) => sum + a.void, 0);
  const runs = view.agents.reduce((sum, a) => sum + a.runs, 0);
  const item = (term: string, value: string): string => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`;
  return `<dl class="context">${[
    item('suite', `<code>${escapeHtml(view.suite?.id ?? '–')}</code>`),
    item('suite hash', `<code>${escapeHtml(view.suite?.hash ?? '–')}</code>`),
    item('controls digest', `<code>${escapeHtml(view.controlsDigest ?? '–')}</code>`),
    item('void', `${voidRuns} of ${runs} runs`),
    ...(view.network === null ? [] : [item('network', escapeHtml(view.network === 'none' ? 'closed web (provider-run tools and URL inputs withheld)' : 'OPEN WEB (model-api+web)'))]),
    item('rules', escapeHtml(describeRulesShort(view))),
    item('controls', `<details><summary>show all</summary><code>${escapeHtml(controlsText(view.controls))}</code></details>`),
    ...(view.metering.upstreams.length
      ? [item('model API', escapeHtml(view.metering.upstreams.join(', '))), item('prices', escapeHtml(view.metering.prices.join('; ')))]
      : []),
  ].join('')}</dl>`;
}

/** `runsPerTask=2, sessionWallClockSec=60, …`: the controls on one line. */
function controlsText(controls: unknown): string {
  if (typeof controls !== 'object' || controls === null) return '(none recorded)';
  return Object.entries(controls as Record<string, unknown>)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}
