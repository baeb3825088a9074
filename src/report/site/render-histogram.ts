import { median } from '../stats/median.js';
import { linearAxis, scaleTo, type Axis } from './chart-axis.js';
import { escapeHtml } from './escape-html.js';

/** Options of {@link renderHistogram}. */
export interface HistogramOptions {
  /** `time per run`: the caption, and the start of the chart's accessible name. */
  readonly title: string;
  readonly xLabel: string;
  /** One value per run drawn. */
  readonly values: readonly number[];
  /** Tick and summary text of a value, e.g. `42.0s`. */
  readonly format: (value: number) => string;
  /** Said after the run count, e.g. `void runs left out`. */
  readonly note?: string;
  /** Whole numbers (lines): ticks and bins of at least 1, a bin of width 1 named by its value. */
  readonly integers?: boolean;
}

const W = 400;
const H = 150;
const PAD = { left: 36, right: 20, top: 12, bottom: 38 };
const PLOT = { x0: PAD.left, x1: W - PAD.right, y0: PAD.top, y1: H - PAD.bottom };

/**
 * A small inline SVG histogram of one value per run: bars of half an axis step, the count of
 * runs on the y axis. Values that all read the same are one bar over one tick (see
 * {@link linearAxis}); no values at all draw "no data". The line under the chart (and the
 * chart's accessible name) says the count, minimum, median and maximum: its text equivalent.
 * Pure, no scripts.
 */
export function renderHistogram(options: HistogramOptions): string {
  const { values, format } = options;
  const axis = linearAxis(values, format, { fromZero: true, integers: options.integers ?? false });
  const mid = median(values);
  const summary = mid === null
    ? 'no data'
    : `${values.length} run${values.length === 1 ? '' : 's'}${options.note ? ` (${options.note})` : ''}; min ${format(Math.min(...values))}, median ${format(mid)}, max ${format(Math.max(...values))}`;
  const parts = [
    `<line class="axis" x1="${PLOT.x0}" x2="${PLOT.x1}" y1="${PLOT.y1}" y2="${PLOT.y1}"/>`,
    axis === null
      ? `<text class="note" x="${(PLOT.x0 + PLOT.x1) / 2}" y="${(PLOT.y0 + PLOT.y1) / 2}" text-anchor="middle">no data</text>`
      : renderBars(axis, options),
    `<text x="${(PLOT.x0 + PLOT.x1) / 2}" y="${H - 6}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>`,
    `<text x="10" y="${(PLOT.y0 + PLOT.y1) / 2}" text-anchor="middle" transform="rotate(-90 10 ${(PLOT.y0 + PLOT.y1) / 2})">runs</text>`,
  ];
  return `<figure class="chart histogram"><figcaption>${escapeHtml(options.title)}</figcaption>
<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(`histogram of ${options.title}: ${summary}`)}">
${parts.join('\n')}
</svg><p class="summary">${escapeHtml(summary)}</p></figure>`;
}

/**
 * The ticks and bars. Bins are half open, `[from, to)`, half a tick step wide (a whole step for
 * whole numbers when half of it is not whole); the axis grows by a bin when the largest value
 * sits on its end. Values that all read the same are one bar a sixth of the plot wide.
 */
function renderBars(axis: Axis, options: HistogramOptions): string {
  const { values, format } = options;
  const integers = options.integers ?? false;
  const half = axis.step === null ? null : integers && !Number.isInteger(axis.step / 2) ? Math.max(1, axis.step) : axis.step / 2;
  const bins = binsOf(values, axis.low, half);
  const drawn: Axis = half === null ? axis : { ...axis, high: Math.max(axis.high, axis.low + bins.length * half) };
  const px = scaleTo(drawn, PLOT.x0, PLOT.x1);
  const most = Math.max(...bins.map((b) => b.count));
  const py = (count: number): number => PLOT.y1 - (count / most) * (PLOT.y1 - PLOT.y0);
  const only = axis.ticks[0]!.value;
  const bars = bins.filter((b) => b.count > 0).map((b) => {
    const [left, right] = b.from === null ? [px(only) - (PLOT.x1 - PLOT.x0) / 12, px(only) + (PLOT.x1 - PLOT.x0) / 12] : [px(b.from), px(b.to)];
    const what = b.from === null ? `at ${format(only)}` : binText(b.from, b.to, format, integers);
    return `<rect class="bar" x="${(left + 1).toFixed(1)}" y="${py(b.count).toFixed(1)}" width="${Math.max(1, right - left - 2).toFixed(1)}" height="${(PLOT.y1 - py(b.count)).toFixed(1)}"><title>${escapeHtml(`${b.count} run${b.count === 1 ? '' : 's'} ${what}`)}</title></rect>`;
  });
  return [
    ...axis.ticks.map((t) => `<text x="${px(t.value).toFixed(1)}" y="${PLOT.y1 + 14}" text-anchor="middle">${escapeHtml(t.label)}</text>`),
    `<text x="${PLOT.x0 - 5}" y="${PLOT.y1 + 4}" text-anchor="end">0</text><text x="${PLOT.x0 - 5}" y="${PLOT.y0 + 4}" text-anchor="end">${most}</text>`,
    `<line class="grid" x1="${PLOT.x0}" x2="${PLOT.x1}" y1="${PLOT.y0}" y2="${PLOT.y0}"/>`,
    ...bars,
  ].join('\n');
}

/** `from 2.0s to 4.0s`; for whole numbers `at 3` (a bin of one value) or `from 0 to 4` (both included). */
function binText(from: number, to: number, format: (value: number) => string, integers: boolean): string {
  if (!integers) return `from ${format(from)} to ${format(to)}`;
  return to - from <= 1 ? `at ${format(from)}` : `from ${format(from)} to ${format(to - 1)}`;
}

interface Bin {
  /** null: the one bin of values that all read the same. */
  readonly from: number | null;
  readonly to: number;
  readonly count: number;
}

/** Counts per bin `[from, to)` of `width` from `low`, up to the bin of the largest value; one bin of all values without a width. */
function binsOf(values: readonly number[], low: number, width: number | null): Bin[] {
  if (width === null) return [{ from: null, to: 0, count: values.length }];
  const index = (v: number): number => Math.max(0, Math.floor((v - low) / width + 1e-9));
  const counts = new Array<number>(index(Math.max(...values)) + 1).fill(0);
  for (const v of values) counts[index(v)]! += 1;
  return counts.map((count, i) => ({ from: low + i * width, to: low + (i + 1) * width, count }));
}
