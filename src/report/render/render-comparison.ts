import type { PairedComparison, PairedTask } from '../view/compare-paired.js';
import { formatReplayRule } from './format-replay-rule.js';
import { formatPoints } from '../view/comparison-power.js';
import { FAILURE_CLASS_INFO } from '../view/failure-classes.js';

/**
 * A paired comparison as plain text: the legal sentence, then the facts it must never be shown
 * without (suite id and hash, controls digest, replay rule, void count), the exact McNemar
 * p-value and the mean paired difference with its 95% interval, then one line per task. When
 * there are more void tasks than the void limit, a line on top says that no winner may be
 * declared. Ends with a newline. Pure.
 */
export function renderComparison(comparison: PairedComparison): string {
  const rows = [
    ['task', comparison.a, comparison.b, 'result'],
    ...comparison.perTask.map((t) => [t.task, shareCell(t, 'a'), shareCell(t, 'b'), resultCell(comparison, t)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const table = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  const lines = [
    ...(comparison.overVoidLimit ? [voidLimitWarning(comparison), ''] : []),
    comparison.sentence,
    comparison.power.sentence,
    '',
    ...describeComparison(comparison, (text) => text),
    '',
    ...table,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The facts beside the sentence, one per line, with identifiers passed through `code` (so the
 * markdown renderer can set them as code). Shared by the text and markdown renderings.
 */
export function describeComparison(c: PairedComparison, code: (text: string) => string): string[] {
  const limit = c.voidLimit === null ? 'no void limit' : `void limit: ${c.voidLimit} void ${c.voidLimit === 1 ? 'task' : 'tasks'}`;
  const difference =
    c.meanDifference === null || c.ci95 === null
      ? `mean paired difference (${code(c.a)} − ${code(c.b)}): – (needs at least 2 tasks without a void)`
      : `mean paired difference (${code(c.a)} − ${code(c.b)}): ${signed(c.meanDifference)}, ` +
        `95% CI [${signed(c.ci95.low)}, ${signed(c.ci95.high)}] over ${c.tasks - c.void} tasks (Student t)`;
  return [
    `suite ${code(c.suite.id)}, hash ${code(c.suite.hash)}`,
    `controls digest ${code(c.controlsDigest)}`,
    `${formatReplayRule(c.replayRule)}; ${limit}`,
    `void: ${c.void} of ${c.tasks} tasks`,
    `exact McNemar (sign test): p = ${formatPValue(c.pValue)} ` +
      `(${c.aWins + c.bWins} discordant tasks: ${code(c.a)} ${c.aWins}, ${code(c.b)} ${c.bWins})`,
    difference,
    ...(c.intervalNote ? [`  ${c.intervalNote}`] : []),
    describeMdd(c),
    describeFailureDifferences(c, code),
  ];
}

/** `why runs were not solved (A / B): no change 2 / 0, regressions 0 / 1`, every class either agent has. */
export function describeFailureDifferences(c: PairedComparison, code: (text: string) => string): string {
  const parts = c.failures.differences.map((d) => `${FAILURE_CLASS_INFO[d.class].label} ${d.a} / ${d.b}${d.a === d.b ? '' : ' *'}`);
  return `why runs were not solved (${code(c.a)} / ${code(c.b)}; * where they differ): ${parts.length === 0 ? 'every run solved' : parts.join(', ')}`;
}

/** `minimum detectable difference (80% power, α = 0.05, 24 tasks): 0.31 (31 points), exact McNemar, discordance 0.290`. */
export function describeMdd(c: PairedComparison): string {
  const { value, how } = mddParts(c);
  return `minimum detectable difference (80% power, α = 0.05, ${c.power.tasks} tasks): ${value}, ${how}`;
}

/** The MDD (`0.31 (31 points)`, `at least …`, `none reachable`) and how it was sized. */
export function mddParts(c: PairedComparison): { value: string; how: string } {
  const p = c.power;
  const how = p.method === 'paired-t'
    ? `paired t, ${p.runsPerTask} runs per task, between-task sd ${p.betweenSd!.toFixed(3)}, within-task variance ${p.withinVar!.toFixed(3)}`
    : `exact McNemar${p.betweenSd === null ? '' : ' on the tasks'}, discordance ${p.discordance.toFixed(3)}`;
  const value = p.mdd === null ? 'none reachable' : `${p.mddKind === 'lower-bound' ? 'at least ' : ''}${formatPoints(p.mdd)}`;
  return { value, how };
}

/** The warning shown on top when the void count is over the limit. */
export function voidLimitWarning(c: PairedComparison): string {
  return `NO WINNER: ${c.void} void tasks, more than the void limit of ${c.voidLimit}; the counts below stand, the verdict does not.`;
}

/** Four decimals; small values in exponent notation so they never print as 0. */
export function formatPValue(p: number): string {
  return p >= 0.0001 ? p.toFixed(4) : p.toExponential(2);
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
}

/** Share solved on the task (two decimals) with the classes of its runs that were not solved, or why it is void. */
export function shareCell(t: PairedTask, side: 'a' | 'b'): string {
  const [share, why, failures] = side === 'a' ? [t.aShare, t.aVoid, t.aFailures] : [t.bShare, t.bVoid, t.bFailures];
  const classes = failures.map((cls) => FAILURE_CLASS_INFO[cls].label).join(', ');
  if (share !== null) return classes === '' ? share.toFixed(2) : `${share.toFixed(2)} (${classes})`;
  return why === 'no-runs' ? 'no runs' : `void (${why}${classes === '' ? '' : `: ${classes}`})`;
}

/** `gold wins`, `tie` or `void`. */
export function resultCell(c: PairedComparison, t: PairedTask): string {
  return t.result === 'a-wins' ? `${c.a} wins` : t.result === 'b-wins' ? `${c.b} wins` : t.result;
}
