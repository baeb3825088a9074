import type { Interval } from '../stats/interval.js';

/**
 * A share and its 95% interval as a small inline bar (0–100%): a track, the interval as a band
 * and the share as a tick; an empty string without a share. Decorative (`aria-hidden`): the
 * cell it sits in carries the same numbers as text. Pure.
 */
export function renderShareBar(share: number | null, ci95: Interval | null): string {
  if (share === null) return '';
  const at = (x: number): string => (Math.min(1, Math.max(0, x)) * 100).toFixed(1);
  const band = ci95 === null ? '' : `<rect class="ci" x="${at(ci95.low)}" y="3" width="${(Number(at(ci95.high)) - Number(at(ci95.low))).toFixed(1)}" height="6"/>`;
  return (
    '<svg class="sharebar" viewBox="-2 0 104 12" width="88" height="12" aria-hidden="true" focusable="false">' +
    `<rect class="track" x="0" y="5" width="100" height="2"/>${band}<rect class="est" x="${(Number(at(share)) - 1.5).toFixed(1)}" y="0" width="3" height="12"/></svg>`
  );
}
