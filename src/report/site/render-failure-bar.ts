import type { FailureTally } from '../view/failure-anatomy.js';
import { FAILURE_CLASS_INFO, FAILURE_CLASSES } from '../view/failure-classes.js';
import { escapeHtml } from './escape-html.js';

/** The bar's CSS (in the site's stylesheet): one colour per class, readable on light and dark. */
export const FAILURE_BAR_CSS =
  'svg.fbar{display:block;width:100%;max-width:480px;height:16px}.fbar rect{stroke:var(--bg);stroke-width:.4}' +
  '.f-solved{fill:var(--solved)}.f-no-change{fill:#8c959f}.f-did-not-build{fill:#bf3989}.f-partly-passing{fill:#d4a72c}.f-regressions{fill:#cf222e}' +
  '.f-protected-or-refused{fill:#8250df}.f-test-limit{fill:#bc4c00}.f-session-limit{fill:#953800}.f-harness-error{fill:#0969da}.f-model-error{fill:#1b7c83}.f-instrument{fill:#afb8c1}' +
  'ul.fkeys{list-style:none;padding:0;margin:4px 0;font-size:13px;display:flex;flex-wrap:wrap;gap:2px 14px}ul.fkeys svg{vertical-align:-1px;margin-right:4px}';

/**
 * An agent's runs as one stacked bar: solved first, then each failure class in its fixed order,
 * each segment as wide as its share of the runs (a `<title>` per segment for pointers), with a
 * legend of the classes it has and their counts. The legend carries every number as text, so
 * colour is never the only carrier. Empty string without runs. Pure.
 */
export function renderFailureBar(runs: number, solved: number, tally: FailureTally, options: { readonly legend?: boolean } = {}): string {
  if (runs === 0) return '';
  const segments = [
    { key: 'solved', label: 'solved', n: solved },
    ...FAILURE_CLASSES.map((cls) => ({ key: cls as string, label: FAILURE_CLASS_INFO[cls].label, n: tally.byClass[cls] ?? 0 })),
  ].filter((s) => s.n > 0);
  let x = 0;
  const rects = segments.map((s) => {
    const width = (s.n / runs) * 100;
    const rect = `<rect class="f-${s.key}" x="${x.toFixed(2)}" y="0" width="${width.toFixed(2)}" height="10"><title>${escapeHtml(`${s.label}: ${s.n} of ${runs} runs`)}</title></rect>`;
    x += width;
    return rect;
  });
  const text = segments.map((s) => `${s.label} ${s.n}`).join(', ');
  const bar = `<svg class="fbar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${escapeHtml(`${runs} runs: ${text}`)}">${rects.join('')}</svg>`;
  if (options.legend === false) return bar;
  const keys = segments.map((s) => `<li><svg width="10" height="10" aria-hidden="true" focusable="false"><rect class="f-${s.key}" width="10" height="10"/></svg>${escapeHtml(`${s.label} ${s.n}`)}</li>`);
  return `${bar}<ul class="fkeys">${keys.join('')}</ul>`;
}
