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

const W = 520;
const H = 300;
const PAD = { left: 56, right: 24, top: 28, bottom: 44 };

/**
 * An inline SVG scatter chart: share solved (y, 0–100%) against one x value per agent, a
 * labelled circle per agent that has both. Agents without an x value are named under the
 * chart with `missingX` (and the chart says it when no agent has one). Pure, no scripts.
 */
export function renderScatter(options: ScatterOptions): string {
  const drawn = options.points.filter((p): p is ScatterPoint & { x: number; y: number } => p.x !== null && p.y !== null);
  const missing = options.points.filter((p) => p.x === null).map((p) => p.label);
  const maxX = Math.max(0, ...drawn.map((p) => p.x));
  const spanX = maxX > 0 ? maxX * 1.1 : 1;
  const px = (x: number): number => PAD.left + (x / spanX) * (W - PAD.left - PAD.right);
  const py = (y: number): number => H - PAD.bottom - y * (H - PAD.top - PAD.bottom);
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map(
    (y) =>
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y)}" y2="${py(y)}" stroke="#eaeef2"/>` +
      `<text x="${PAD.left - 6}" y="${py(y) + 4}" text-anchor="end">${y * 100}%</text>`,
  );
  const xTicks = maxX > 0
    ? [0, 0.5, 1].map((f) => `<text x="${px(maxX * f)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${escapeHtml(options.formatX(maxX * f))}</text>`)
    : [];
  const circles = drawn.map(
    (p) =>
      `<g class="point"><circle cx="${px(p.x).toFixed(1)}" cy="${py(p.y).toFixed(1)}" r="5" fill="#0969da"><title>${escapeHtml(
        `${p.label}: ${(p.y * 100).toFixed(1)}%, ${options.formatX(p.x)}`,
      )}</title></circle><text x="${(px(p.x) + 8).toFixed(1)}" y="${(py(p.y) - 6).toFixed(1)}">${escapeHtml(p.label)}</text></g>`,
  );
  const note = missing.length === 0 ? '' : `<text x="${W / 2}" y="${PAD.top - 10}" text-anchor="middle" fill="#9a6700">${escapeHtml(
    `${options.missingX}: ${missing.join(', ')}`,
  )}</text>`;
  return `<figure><svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(options.title)}">
<rect width="${W}" height="${H}" fill="#fff"/>
${yTicks.join('\n')}
${xTicks.join('\n')}
<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#57606a"/>
<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#57606a"/>
<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 8}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>
<text x="14" y="${H / 2}" text-anchor="middle" transform="rotate(-90 14 ${H / 2})">${escapeHtml(options.yLabel)}</text>
${note}
${circles.join('\n')}
</svg><figcaption>${escapeHtml(options.title)}</figcaption></figure>`;
}
