import { EMPTY, unsafeWarning } from './format-cells.js';
import { renderPoints } from './render-points.js';
import { COUNTING_NOTE, LEADERBOARD_COLUMNS } from './leaderboard-columns.js';
import type { AgentSummary, LeaderboardView } from './leaderboard-view.js';

/** Columns whose text is an identifier: shown as code so `_` or `*` in it stays literal. */
const CODE_COLUMNS = new Set(['agent', 'version', 'model@effort']);

/**
 * The leaderboard as GitHub-flavoured markdown: a table in rank order, then the suite id and
 * hash, the controls digest, how the numbers are counted, which interval each agent got, and
 * the void runs per reason. Ends with a newline.
 */
export function renderMarkdown(view: LeaderboardView): string {
  const header = LEADERBOARD_COLUMNS.map((column) => column.header);
  const rule = LEADERBOARD_COLUMNS.map((column) => (column.align === 'right' ? '---:' : ':---'));
  const rows = view.agents.map((line) =>
    LEADERBOARD_COLUMNS.map((column) => {
      const text = column.cell(line);
      return CODE_COLUMNS.has(column.header) && text !== EMPTY ? codeSpan(text) : escapeCell(text);
    }),
  );
  const tableLine = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const suite =
    view.suite === null
      ? 'No runs.'
      : `Suite ${codeSpan(view.suite.id)}, hash ${codeSpan(view.suite.hash)}; controls digest ` +
        `${codeSpan(view.controlsDigest ?? EMPTY)}; standard ${view.standardRunsPerTask} runs per task.`;
  const warning = unsafeWarning(view.unsafeRuns);
  const lines = [
    ...(warning ? [`> **${warning}**`, ''] : []),
    tableLine(header.map(escapeCell)),
    tableLine(rule),
    ...rows.map(tableLine),
    '',
    ...pointsBlock(renderPoints(view)),
    suite,
    '',
    COUNTING_NOTE,
    ...describeIntervals(view.agents),
    ...describeVoids(view.agents),
  ];
  return `${lines.join('\n')}\n`;
}

function describeIntervals(agents: readonly AgentSummary[]): string[] {
  const byMethod = (method: 'wilson' | 'clustered' | 'wilson-by-task'): string =>
    agents.filter((a) => a.ciMethod === method).map((a) => codeSpan(a.agent.id)).join(', ');
  const parts = [
    byMethod('wilson') && `Wilson for ${byMethod('wilson')}`,
    byMethod('clustered') && `clustered for ${byMethod('clustered')}`,
    byMethod('wilson-by-task') && `Wilson over tasks (all runs alike) for ${byMethod('wilson-by-task')}`,
  ].filter((part) => part !== '');
  return parts.length === 0 ? [] : ['', `Intervals: ${parts.join('; ')}.`];
}

function describeVoids(agents: readonly AgentSummary[]): string[] {
  const withVoid = agents.filter((a) => a.void > 0);
  if (withVoid.length === 0) return [];
  const perAgent = withVoid.map((a) => {
    const reasons = Object.entries(a.voidByReason).map(([reason, count]) => `${reason} ${count}`);
    return `${codeSpan(a.agent.id)}: ${reasons.join(', ')}`;
  });
  return ['', `Void runs: ${perAgent.join('; ')}.`];
}

/** A pipe would end the table cell; GFM lets a backslash escape it, even inside code. */
function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Inline code, fenced with more backticks than the text contains in a row. */
function codeSpan(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${escapeCell(text)}${pad}${fence}`;
}

/** The points table as a fenced block (its columns are already aligned). */
function pointsBlock(lines: string[]): string[] {
  return lines.length === 0 ? [] : [lines[0]!, '', '```', ...lines.slice(1), '```', ''];
}
