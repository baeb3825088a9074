/**
 * Number formats shared by the text renderers (terminal table and markdown). Every formatter
 * maps null to {@link EMPTY}, so a missing value never reads as 0. JSON never uses these.
 */
import type { Interval } from '../stats/interval.js';

/** Shown for a value that does not exist (no cost data, every run void, …). */
export const EMPTY = '–';

/** The warning every rendering carries when some runs were made without a sandbox, or null. */
export function unsafeWarning(unsafeRuns: number): string | null {
  return unsafeRuns === 0
    ? null
    : `WARNING: ${unsafeRuns} run(s) were made with --unsafe-no-sandbox: the agents could read hidden tests and ran without limits. Do not publish these numbers.`;
}

/** `50.0% [23.7–76.3]`: share and 95% interval in percent, one decimal. */
export function formatShare(share: number | null, ci95: Interval | null): string {
  if (share === null) return EMPTY;
  const percent = `${(share * 100).toFixed(1)}%`;
  if (ci95 === null) return percent;
  return `${percent} [${(ci95.low * 100).toFixed(1)}–${(ci95.high * 100).toFixed(1)}]`;
}

/** `42.5s`, `4m 05s`, `2h 03m`. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return EMPTY;
  if (seconds < 59.95) return `${seconds.toFixed(1)}s`;
  const whole = Math.round(seconds);
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (whole < 3600) return `${Math.floor(whole / 60)}m ${pad(whole % 60)}s`;
  const minutes = Math.round(whole / 60);
  return `${Math.floor(minutes / 60)}h ${pad(minutes % 60)}m`;
}

/** Integers as is, halves (medians of an even count) with one decimal. */
export function formatCount(value: number | null): string {
  if (value === null) return EMPTY;
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

const TOKEN_UNITS = [
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
] as const;

/** Three significant digits with a unit: `950`, `12.3k`, `4.56M`, `1.20B`. */
export function formatTokens(value: number | null): string {
  if (value === null) return EMPTY;
  for (const [unit, suffix] of TOKEN_UNITS) {
    // 0.9995 so that 999 600 shows as 1.00M, not 1.00e+3k.
    if (value >= unit * 0.9995) return `${(value / unit).toPrecision(3)}${suffix}`;
  }
  return String(Math.round(value));
}

/** `$1.75`, and three decimals below a dollar: `$0.042`. */
export function formatUsd(value: number | null): string {
  if (value === null) return EMPTY;
  return `$${value >= 1 ? value.toFixed(2) : value.toFixed(3)}`;
}
