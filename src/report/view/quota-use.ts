import { compareText } from '../common/compare-text.js';

/** One model answer's subscription quota headers, with the agent whose run it served and when. */
export interface QuotaReading {
  readonly agent: string;
  /** When the request started (ISO 8601). */
  readonly at: string;
  readonly quota: Readonly<Record<string, string>>;
}

/** How much of one quota window an agent's bake used, as the plan's own headers said. */
export interface QuotaWindow {
  readonly agent: string;
  /** The window as the plan names it: Codex `primary` / `secondary`, Claude `5h` / `7d`. */
  readonly window: string;
  /** Its length in minutes where the headers give it, else null. */
  readonly minutes: number | null;
  /** Percent used at the first and at the last answer of the bake that carried it. */
  readonly firstPercent: number;
  readonly lastPercent: number;
  /** The highest percent any answer reported (a window that reset mid-bake goes down again). */
  readonly maxPercent: number;
  /** Answers that carried it. */
  readonly answers: number;
}

/**
 * Reads a used share off one quota header: Codex `x-codex-<window>-used-percent` (0–100),
 * Claude `anthropic-ratelimit-unified-<window>-utilization` (0–1). Null for any other header.
 */
function readUsed(name: string, value: string): { window: string; percent: number } | null {
  const codex = /^x-codex-(.+)-used-percent$/.exec(name);
  const claude = /^anthropic-ratelimit-unified-(.+)-utilization$/.exec(name);
  const n = Number(value);
  if (!Number.isFinite(n) || (!codex && !claude)) return null;
  return codex ? { window: codex[1]!, percent: n } : { window: claude![1]!, percent: n * 100 };
}

/**
 * Per agent and quota window, what the subscription's own headers said of the share used, from
 * the bake's first answer to its last (readings sorted by time here). Windows no header gives a
 * share of are left out; no readings, no windows. Pure.
 */
export function quotaUse(readings: readonly QuotaReading[]): QuotaWindow[] {
  const windows = new Map<string, { agent: string; window: string; minutes: number | null; values: number[] }>();
  for (const reading of [...readings].sort((a, b) => compareText(a.at, b.at))) {
    for (const [name, value] of Object.entries(reading.quota)) {
      const used = readUsed(name.toLowerCase(), value);
      if (!used) continue;
      const key = `${reading.agent}\u0000${used.window}`;
      const minutes = Number(reading.quota[`x-codex-${used.window}-window-minutes`]);
      const slot = windows.get(key) ?? { agent: reading.agent, window: used.window, minutes: null, values: [] };
      if (Number.isFinite(minutes) && minutes > 0) slot.minutes = minutes;
      slot.values.push(used.percent);
      windows.set(key, slot);
    }
  }
  return [...windows.values()]
    .map((w) => ({ agent: w.agent, window: w.window, minutes: w.minutes, firstPercent: w.values[0]!, lastPercent: w.values.at(-1)!, maxPercent: Math.max(...w.values), answers: w.values.length }))
    .sort((a, b) => compareText(a.agent, b.agent) || compareText(a.window, b.window));
}

/** One sentence per agent with quota readings: `Quota (the plan's own headers): codex:…: primary window (300 min) 12% → 35% used …`. */
export function describeQuota(windows: readonly QuotaWindow[] | undefined): string[] {
  if (!windows || windows.length === 0) return [];
  const agents = [...new Set(windows.map((w) => w.agent))];
  return agents.map((agent) => {
    const parts = windows
      .filter((w) => w.agent === agent)
      .map((w) => `${w.window} window${w.minutes === null ? '' : ` (${w.minutes} min)`} ${pct(w.firstPercent)} → ${pct(w.lastPercent)} used${w.maxPercent > w.lastPercent ? ` (peak ${pct(w.maxPercent)})` : ''}`);
    return `Subscription quota of ${agent}, from the plan's own headers at the bake's first and last answer: ${parts.join('; ')}.`;
  });
}

function pct(n: number): string {
  return `${Math.round(n * 10) / 10}%`;
}
