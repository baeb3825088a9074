import { linearAxis, scaleTo } from './chart-axis.js';
import { escapeHtml } from './escape-html.js';

/** One agent in a scatter chart; a null coordinate means the agent has no value there. */
export interface ScatterPoint {
  readonly label: string;
  readonly x: number | null;
  readonly y: number | null;
}

/** Options of {@link renderScatter}. */
export interface ScatterOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly points: readonly ScatterPoint[];
  /** Tick text of an x value, e.g. `$0.12` or `42.0s`. */
  readonly formatX: (x: number) => string;
  /** What to say when an agent has no x value, e.g. `no cost data`. */
  readonly missingX: string;
}

const W = 400;
const H = 250;
const PAD = { left: 44, right: 28, top: 20, bottom: 40 };

type Drawn = ScatterPoint & { x: number; y: number; key: string };

/**
 * An inline SVG scatter chart: share solved (y, 0–100%) against one x value per agent. Each agent
 * with both values is a dot keyed by a letter (A, B, … in the order given); dots at the same spot
 * share one label (`A,B`). Under the chart a list gives every key's agent and values: the chart's
 * text equivalent. Agents without an x value are named under it with `missingX`; with no agent
 * to draw the chart says "no data". The x axis follows {@link linearAxis}: one tick when all
 * values read the same. Pure, no scripts.
 */
export function renderScatter(options: ScatterOptions): string {
  const keyed = options.points.map((p, i) => ({ ...p, key: letterKey(i) }));
  const drawn = keyed.filter((p): p is Drawn => p.x !== null && p.y !== null);
  const missing = options.points.filter((p) => p.x === null).map((p) => p.label);
  const axis = linearAxis(drawn.map((p) => p.x), options.formatX, { fromZero: true });
  const px = axis ? scaleTo(axis, PAD.left, W - PAD.right) : () => (PAD.left + W - PAD.right) / 2;
  const py = (y: number): number => H - PAD.bottom - y * (H - PAD.top - PAD.bottom);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map(
    (y) => `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y)}" y2="${py(y)}"/><text x="${PAD.left - 5}" y="${py(y) + 4}" text-anchor="end">${y * 100}%</text>`,
  );
  const xTicks = (axis?.ticks ?? []).map((t) => `<text x="${px(t.value).toFixed(1)}" y="${H - PAD.bottom + 15}" text-anchor="middle">${escapeHtml(t.label)}</text>`);
  const dots = drawn.map(
    (p) => `<circle class="dot" cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="4.5"><title>${escapeHtml(`${p.key} ${p.label}: ${(p.y * 100).toFixed(1)}%, ${options.formatX(p.x)}`)}</title></circle>`,
  );
  const empty = drawn.length === 0 ? `<text class="note" x="${(PAD.left + W - PAD.right) / 2}" y="${py(0.5)}" text-anchor="middle">no data</text>` : '';
  const legend = drawn.map((p) => `<li><span class="key">${p.key}</span> ${escapeHtml(`${p.label}: ${(p.y * 100).toFixed(1)}%, ${options.formatX(p.x)}`)}</li>`);
  return `<figure class="chart"><figcaption>${escapeHtml(options.title)}</figcaption>
<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(`${options.title}${drawn.length ? ': the list under the chart gives each point' : ': no data'}`)}">
${yTicks.join('\n')}
${xTicks.join('\n')}
<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}"/>
<line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}"/>
<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>
<text x="12" y="${(PAD.top + H - PAD.bottom) / 2}" text-anchor="middle" transform="rotate(-90 12 ${(PAD.top + H - PAD.bottom) / 2})">${escapeHtml(options.yLabel)}</text>
${empty}
${dots.join('\n')}
${placeLabels(drawn.map((p) => ({ key: p.key, x: px(p.x), y: py(p.y) })))}
</svg>
${legend.length ? `<ul class="legend">${legend.join('')}</ul>` : ''}
${missing.length ? `<p class="note">${escapeHtml(`${options.missingX}: ${missing.join(', ')}`)}</p>` : ''}</figure>`;
}

/** `A` … `Z`, then `AA`, `AB`, …: the key of the i-th point. */
function letterKey(i: number): string {
  return (i >= 26 ? letterKey(Math.floor(i / 26) - 1) : '') + String.fromCharCode(65 + (i % 26));
}

/**
 * The key labels beside the dots: dots closer than a label's width share one label (`C,D`); a
 * label that would cover another label or a dot moves below or above its dot, and to the dot's
 * left at the right edge.
 */
function placeLabels(dots: readonly { key: string; x: number; y: number }[]): string {
  const groups: { keys: string[]; x: number; y: number }[] = [];
  for (const d of dots) {
    const near = groups.find((g) => Math.abs(g.x - d.x) < 10 && Math.abs(g.y - d.y) < 10);
    if (near) near.keys.push(d.key);
    else groups.push({ keys: [d.key], x: d.x, y: d.y });
  }
  const boxes = dots.map((d) => ({ x0: d.x - 5, x1: d.x + 5, y0: d.y - 5, y1: d.y + 5 }));
  return groups
    .sort((a, b) => a.x - b.x)
    .map((g) => {
      const text = [...g.keys].sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).join(',');
      const width = text.length * 7;
      const left = g.x + 7 + width > W;
      const x0 = left ? g.x - 7 - width : g.x + 7;
      const dy = [-6, 14, -18, 26, -30, 38].find((d) => !boxes.some((b) => b.x0 < x0 + width && x0 < b.x1 && b.y0 < g.y + d && g.y + d - 11 < b.y1)) ?? -6;
      boxes.push({ x0, x1: x0 + width, y0: g.y + dy - 11, y1: g.y + dy });
      return `<text class="key" x="${x0.toFixed(1)}" y="${(g.y + dy).toFixed(1)}">${escapeHtml(text)}</text>`;
    })
    .join('');
}
