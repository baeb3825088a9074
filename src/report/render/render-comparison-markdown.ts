import type { PairedComparison } from '../view/compare-paired.js';
import { describeComparison, resultCell, shareCell, voidLimitWarning } from './render-comparison.js';
import { codeSpan, escapeCell } from './render-markdown.js';

/**
 * A paired comparison as GitHub-flavoured markdown: the legal sentence in bold, the facts beside
 * it as a list (see renderComparison), then a table with one row per task. Ends with a newline.
 */
export function renderComparisonMarkdown(comparison: PairedComparison): string {
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const lines = [
    ...(comparison.overVoidLimit ? [`> **${voidLimitWarning(comparison)}**`, ''] : []),
    `**${comparison.sentence.replace(/[*_]/g, '\\$&')}**`,
    '',
    comparison.power.sentence.replace(/[*_]/g, '\\$&'),
    '',
    ...describeComparison(comparison, codeSpan).map((fact) => `- ${fact}`),
    '',
    row(['task', codeSpan(comparison.a), codeSpan(comparison.b), 'result']),
    row([':---', '---:', '---:', ':---']),
    ...comparison.perTask.map((t) =>
      row([codeSpan(t.task), shareCell(t, 'a'), shareCell(t, 'b'), escapeCell(resultCell(comparison, t))]),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
