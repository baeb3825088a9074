import { escapeHtml } from './escape-html.js';
import type { SiteCheck } from './site-input.js';

/** Passing rows drawn at most (failures are always all drawn): a suite may have thousands of pass-to-pass tests. */
const MAX_PASSING_ROWS = 500;

const EXPECTED: Readonly<Record<SiteCheck['expected'], string>> = { 'fail-to-pass': 'F→P', 'pass-to-pass': 'P→P', generated: 'generated' };
/** Failures first: what went wrong is what a reader looks for. */
const STATUS_ORDER: readonly SiteCheck['status'][] = ['fail', 'error', 'missing', 'skip', 'pass'];

/**
 * An order's graded tests (or generated checks) as the store holds them: counts per kind
 * (fail-to-pass, pass-to-pass, generated) and status, then one row per test, failures first,
 * each with its id (and, for one that did not pass, the first line of its message, as the runner
 * said it), what was expected of it and its status in words. Pure.
 */
export function renderChecks(checks: readonly SiteCheck[]): string {
  if (checks.length === 0) return '<p>No test results stored for this order (it was not graded, or grading did not get as far as the tests).</p>';
  const passed = checks.filter((c) => c.status === 'pass').length;
  const kinds = (Object.keys(EXPECTED) as SiteCheck['expected'][]).flatMap((kind) => {
    const of = checks.filter((c) => c.expected === kind);
    return of.length === 0 ? [] : [`${EXPECTED[kind]} ${of.filter((c) => c.status === 'pass').length}/${of.length} passed`];
  });
  const statuses = STATUS_ORDER.flatMap((s) => {
    const n = checks.filter((c) => c.status === s).length;
    return n === 0 ? [] : [`${n} ${s}`];
  });
  const sorted = [...checks].sort(
    (a, b) => STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) || a.expected.localeCompare(b.expected) || a.id.localeCompare(b.id),
  );
  const failing = sorted.filter((c) => c.status !== 'pass');
  const passing = sorted.filter((c) => c.status === 'pass');
  const rows = [...failing, ...passing.slice(0, MAX_PASSING_ROWS)].map(
    (c) =>
      `<tr><td><code>${escapeHtml(c.id)}</code>${c.message ? `<span class="check-message">${escapeHtml(c.message)}</span>` : ''}</td>` +
      `<td>${EXPECTED[c.expected]}</td><td class="status-${c.status}">${c.status}</td></tr>`,
  );
  const cut = passing.length > MAX_PASSING_ROWS ? `<p class="checks-cut">${passing.length - MAX_PASSING_ROWS} more passing tests not listed.</p>` : '';
  return [
    `<p class="checks-counts"><strong>${passed} of ${checks.length} passed</strong> (${kinds.join('; ')}; ${statuses.join(', ')}).</p>`,
    `<table class="checks"><thead><tr><th>test</th><th>expected</th><th>status</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    cut,
  ].join('');
}
