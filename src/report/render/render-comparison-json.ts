import type { RunRecord } from '../../types.js';
import type { PairedComparison } from '../view/compare-paired.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';
import { buildJsonReport, type JsonReport } from './render-json.js';

/** `bakeoff report --format json --compare A B`: the JSON report of A's and B's runs, plus the comparison. */
export interface JsonComparisonReport extends JsonReport {
  readonly comparison: PairedComparison;
}

/**
 * The comparison as JSON text (two-space indented, ending with a newline).
 *
 * @param view the summary of A's and B's runs only
 * @param runs A's and B's runs
 */
export function renderComparisonJson(
  view: LeaderboardView,
  runs: readonly RunRecord[],
  comparison: PairedComparison,
): string {
  const report: JsonComparisonReport = { ...buildJsonReport(view, runs), comparison };
  return `${JSON.stringify(report, null, 2)}\n`;
}
