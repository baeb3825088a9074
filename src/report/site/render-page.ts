import { describeRulesShort } from '../render/describe-rules.js';
import { unsafeWarning } from '../render/format-cells.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';
import { escapeHtml } from './escape-html.js';

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
}

/** In the head of every page: how `publish` recognises a folder it wrote before. */
export const SITE_MARKER = '<meta name="generator" content="bakeoff publish">';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 40px;color:#1b1f24}
header{border-bottom:1px solid #d0d7de;margin-bottom:16px;padding:12px 0}
nav a{margin-right:14px}
h1{font-size:22px;margin:12px 0}
h2{font-size:17px;margin:24px 0 8px}
table{border-collapse:collapse;margin:8px 0}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
th[data-sort]{cursor:pointer;text-decoration:underline dotted}
td.num,th.num{text-align:right}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
pre{background:#f6f8fa;border:1px solid #d0d7de;padding:8px;overflow:auto;max-height:480px}
.context{font-size:12px;color:#57606a}
.context dt{font-weight:600;display:inline}
.context dd{display:inline;margin:0 12px 0 4px}
.warn{background:#fff8c5;border:1px solid #d4a72c;padding:8px;margin:8px 0}
.solved{color:#1a7f37}.failed{color:#cf222e}.void{color:#9a6700}
svg text{font:11px system-ui,sans-serif}
`;

/**
 * Sorts a table by a clicked header: `th[data-sort]` headers, cells with a numeric
 * `data-value` (empty = no value, sorted last). First click ascending, the next descending.
 */
const SORT_SCRIPT = `
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('th[data-sort]').forEach(function(th, _i){
    th.addEventListener('click', function(){
      var col = Array.prototype.indexOf.call(th.parentNode.children, th);
      var asc = th.getAttribute('data-dir') !== 'asc';
      table.querySelectorAll('th[data-sort]').forEach(function(h){ h.removeAttribute('data-dir'); });
      th.setAttribute('data-dir', asc ? 'asc' : 'desc');
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
  });
});
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
${SITE_MARKER}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${CSS}</style>
</head>
<body>
<header>
<nav><a href="${root}index.html">leaderboard</a><a href="${root}matrix.html">task × agent</a><a href="${root}compare.html">paired comparison</a></nav>
${renderContext(view)}
${warning ? `<p class="warn">${escapeHtml(warning)}</p>` : ''}
${scriptedWarning(view) ? `<p class="warn">${escapeHtml(scriptedWarning(view)!)}</p>` : ''}
${view.ranking.refused ? `<p class="warn"><strong>Not ranked:</strong> ${escapeHtml(view.ranking.reason)}</p>` : ''}
</header>
<main>
<h1>${escapeHtml(options.title)}</h1>
${options.body}
</main>
<footer class="context"><p>Made by bakeoff publish at ${escapeHtml(options.generatedAt)}${options.isPrivate ? ' — PRIVATE site: contains changes, agent output and test output' : ''}.</p></footer>
<script>${SORT_SCRIPT}</script>
</body>
</html>
`;
}

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
    item('rules', escapeHtml(describeRulesShort(view))),
    item('controls', `<code>${escapeHtml(controlsText(view.controls))}</code>`),
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
