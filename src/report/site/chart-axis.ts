/** One labelled tick of an axis. */
export interface AxisTick {
  readonly value: number;
  readonly label: string;
}

/** A linear axis: the value range drawn (`low` at one end, `high` at the other) and its ticks. */
export interface Axis {
  readonly low: number;
  readonly high: number;
  /** In increasing order, no two with the same label. */
  readonly ticks: readonly AxisTick[];
  /** Distance between neighbouring ticks before labels were merged; null when there is one tick by design. */
  readonly step: number | null;
}

/** Options of {@link linearAxis}. */
export interface AxisOptions {
  /** Start at 0 when no value is negative (costs, times, counts). */
  readonly fromZero?: boolean;
  /** The values are whole numbers: no tick between two of them. */
  readonly integers?: boolean;
}

/**
 * The axis for a set of values, or null when there are none (the chart then says "no data").
 *
 * - Values that all read the same once formatted (`0.0s`, `0.0s`, …: equal, or equal at the
 *   format's precision, zeros included) get one tick, at their middle, and a range padded on both
 *   sides, so the points sit in the middle instead of on an edge with three identical labels.
 * - Otherwise 3–6 ticks at round steps (1, 2 or 5 × 10ⁿ) from `low` (0 with `fromZero` and no
 *   negative value) to the first step at or past the largest value; a tick whose label repeats
 *   the one before it (a format coarser than the step) is left out. With `integers` (counts)
 *   the step is at least 1.
 */
export function linearAxis(values: readonly number[], format: (value: number) => string, options: AxisOptions = {}): Axis | null {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return null;
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  if (format(min) === format(max)) {
    const middle = (min + max) / 2;
    const pad = Math.max(Math.abs(middle) * 0.5, max - min) || 1;
    return { low: middle - pad, high: middle + pad, ticks: [{ value: middle, label: format(middle) }], step: null };
  }
  const low = options.fromZero && min >= 0 ? 0 : min;
  const step = options.integers ? Math.max(1, roundStep((max - low) / 4)) : roundStep((max - low) / 4);
  const start = Math.floor(low / step) * step;
  const ticks: AxisTick[] = [];
  let value = start;
  for (let i = 0; i === 0 || value < max - step * 1e-9; i++) {
    value = Number((start + i * step).toPrecision(12));
    const label = format(value);
    if (ticks.at(-1)?.label !== label) ticks.push({ value, label });
  }
  return { low: start, high: Math.max(value, start + step), ticks, step };
}

/** The round number (1, 2 or 5 × 10ⁿ) at or just above `raw`. */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/** Maps a value on `axis` to a coordinate between `from` and `to`. */
export function scaleTo(axis: Axis, from: number, to: number): (value: number) => number {
  const span = axis.high - axis.low;
  return (value) => from + ((value - axis.low) / span) * (to - from);
}
