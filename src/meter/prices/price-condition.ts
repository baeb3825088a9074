import type { ConditionalPrice, ModelPrice as CatalogPrices } from '@pydantic/genai-prices';

/** A daily UTC window, in seconds since midnight: `from` included, `to` excluded, wrapping past midnight when `to < from`. */
export interface DailyWindow {
  readonly from: number;
  readonly to: number;
}

/** Whether `at` falls in a daily UTC window (the catalog's rule for `time_of_date` prices). */
export function inWindow(at: Date, window: DailyWindow): boolean {
  const t = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds() + at.getUTCMilliseconds() / 1000;
  return window.to < window.from ? t >= window.from || t < window.to : t >= window.from && t < window.to;
}

/** `00:30–16:30 UTC` for a list of windows (seconds shown only when not zero). */
export function describeWindows(windows: readonly DailyWindow[]): string {
  return `${windows.map((w) => `${clock(w.from)}–${clock(w.to)}`).join(', ')} UTC`;
}

/** Seconds since midnight of `HH:MM`, `HH:MM:SS`, with an optional trailing `Z`; null when it is not a time. */
export function secondsOfDay(text: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?Z?$/.exec(text);
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3] ?? 0) : null;
}

/**
 * When the catalog price `chosen` holds, among a model's conditional prices: its own condition
 * (`since 2026-08-17`, `00:30–16:30 UTC`) and the time-of-day windows it is outside of
 * (`outside 00:30–16:30 UTC`); null for a model with a single price.
 */
export function conditionOf(all: ConditionalPrice[] | CatalogPrices, chosen: CatalogPrices): string | null {
  if (!Array.isArray(all)) return null;
  const entry = all.find((c) => c.prices === chosen);
  const own = entry?.constraint;
  const parts: string[] = [];
  if (own?.type === 'start_date') parts.push(`since ${own.start_date}`);
  if (own?.type === 'time_of_date') return describeWindows([windowOf(own)]);
  const others = all.flatMap((c) => (c !== entry && c.constraint?.type === 'time_of_date' ? [windowOf(c.constraint)] : []));
  if (others.length > 0) parts.push(`outside ${describeWindows(others)}`);
  return parts.length > 0 ? parts.join(', ') : null;
}

function windowOf(constraint: { start_time: string; end_time: string }): DailyWindow {
  return { from: secondsOfDay(constraint.start_time) ?? 0, to: secondsOfDay(constraint.end_time) ?? 0 };
}

function clock(seconds: number): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  return `${pad(h)}:${pad(m)}${s === 0 ? '' : `:${pad(s)}`}`;
}
