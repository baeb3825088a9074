/** One labelled tick of an axis. */
export interface AxisTick {
  readonly value: number;
  readonly label: string;
}

/** A linear axis: the value range drawn (`low` at one end, `high` at the other) and its ticks. */
export interface Axis {
  readonly low: number;
  readonly high: number;
  /** In increasing order, evenly spaced by `step`, no two neighbours with the same label. */
  readonly ticks: readonly AxisTick[];
  /** Distance between neighbouring ticks; null when the values were collapsed onto one tick. */
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
 * Distinct tick positions always have distinct labels, and every label is its own tick's value.
 *
 * - Values that all read the same once formatted (`0.0s`, `0.0s`, …: equal, or equal at the
 *   format's precision, zeros included) are collapsed: one tick, at their middle, in a range
 *   padded on both sides, and {@link scaleTo} draws every value at that tick, so no two points
 *   sit apart above one label.
 * - Otherwise 3–6 ticks at round steps (1, 2 or 5 × 10ⁿ) from `low` (0 with `fromZero` and no
 *   negative value) to the first step at or past the largest value. A step finer than the
 *   format's precision would give two ticks one label (`0.0s` at 0 and 0.02): the step grows to
 *   the next round one until neighbouring labels differ. With `integers` (counts) the step is at
 *   least 1.
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
  let step = options.integers ? Math.max(1, roundStep((max - low) / 4)) : roundStep((max - low) / 4);
  // at most a few rounds: each grows the step 2–2.5 times, and two ticks around [min, max] read differently
  for (let round = 0; ; round++) {
    const axis = ticksAt(low, max, step, format);
    if (round === 30 || axis.ticks.every((t, i) => i === 0 || t.label !== axis.ticks[i - 1]!.label)) return axis;
    step = roundStep(step * 1.5);
  }
}

/** Ticks every `step` from the step at or below `low` to the first at or past `max`. */
function ticksAt(low: number, max: number, step: number, format: (value: number) => string): Axis {
  const start = Math.floor(low / step) * step;
  const ticks: AxisTick[] = [];
  let value = start;
  for (let i = 0; i === 0 || value < max - step * 1e-9; i++) {
    value = Number((start + i * step).toPrecision(12));
    ticks.push({ value, label: format(value) });
  }
  return { low: start, high: Math.max(value, start + step), ticks, step };
}

/** The round number (1, 2 or 5 × 10ⁿ) at or just above `raw`. */
function roundStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/** Maps a value on `axis` to a coordinate between `from` and `to`; on a collapsed axis (one tick by design) every value to its tick. */
export function scaleTo(axis: Axis, from: number, to: number): (value: number) => number {
  const span = axis.high - axis.low;
  if (axis.step === null) {
    const at = from + ((axis.ticks[0]!.value - axis.low) / span) * (to - from);
    return () => at;
  }
  return (value) => from + ((value - axis.low) / span) * (to - from);
}
