import { describeBudget } from '../view/budget-use.js';
import { describeQuota } from '../view/quota-use.js';
import { describeMetering } from './describe-metering.js';
import { describeNetwork, networkLabel } from './describe-network.js';
import { EMPTY, unsafeWarning } from './format-cells.js';
import { formatMatrixCell } from './render-matrix.js';
import { renderPoints } from './render-points.js';
import { columnsForView } from './columns-for-view.js';
import { describeRules } from './describe-rules.js';
import { failureNote, failureTable } from './describe-failures.js';
import type { AgentSummary, LeaderboardView } from '../view/leaderboard-view.js';

/** Columns whose text is an identifier: shown as code so `_` or `*` in it stays literal. */
const CODE_COLUMNS = new Set(['agent', 'version', 'model@effort']);

/**
 * The leaderboard as GitHub-flavoured markdown: a table in rank order, then the suite id and
 * hash, the controls digest, how the numbers are counted (replay rule and void limit included),
 * which interval each agent got, and the void runs and void tasks per reason. When the ranking
 * was refused, a quote on top says why and every rank shows as `–`. Ends with a newline.
 */
export function renderMarkdown(view: LeaderboardView): string {
  const columns = columnsForView(view);
  const header = columns.map((column) => column.header);
  const rule = columns.map((column) => (column.align === 'right' ? '---:' : ':---'));
  const rows = view.agents.map((line) =>
    columns.map((column) => {
      const text = column.cell(line);
      return CODE_COLUMNS.has(column.header) && text !== EMPTY ? codeSpan(text) : escapeCell(text);
    }),
  );
  const tableLine = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const suite =
    view.suite === null
      ? 'No runs.'
      : `Suite ${codeSpan(view.suite.id)}, hash ${codeSpan(view.suite.hash)}; controls digest ` +
        `${codeSpan(view.controlsDigest ?? EMPTY)}; ${networkLabel(view) === null ? '' : `${networkLabel(view)}; `}standard ${view.standardRunsPerTask} runs per task.`;
  const warning = unsafeWarning(view.unsafeRuns);
  const lines = [
    ...(warning ? [`> **${warning}**`, ''] : []),
    ...(view.network === 'model-api+web' ? ['> **Open web** (network: model-api+web): the model API could search and fetch the web for the agents; never compared with closed-web runs.', ''] : []),
    ...(view.ranking.refused ? [`> **Not ranked:** ${view.ranking.reason}`, ''] : []),
    tableLine(header.map(escapeCell)),
    tableLine(rule),
    ...rows.map(tableLine),
    '',
    ...pointsBlock(renderPoints(view)),
    ...failureBlock(view),
    ...matrixBlock(view),
    suite,
    '',
    ...describeRules(view).flatMap((note) => [note, '']),
    ...describeMetering(view.metering).flatMap((note) => [note, '']),
    ...describeNetwork(view).flatMap((note) => [note, '']),
    ...describeBudget(view.budget).flatMap((note) => [note, '']),
    ...describeQuota(view.quota).flatMap((note) => [note, '']),
    ...describeIntervals(view),
    ...describeVoids(view.agents),
    ...describeVoidTasks(view),
    ...describeAgreement(view),
  ];
  return `${lines.join('\n')}\n`;
}

function describeIntervals(view: LeaderboardView): string[] {
  const byMethod = (method: 'wilson' | 'clustered' | 'wilson-by-task'): string =>
    view.agents.filter((a) => a.ciMethod === method).map((a) => codeSpan(a.agent.id)).join(', ');
  const whyByTask = view.replayRule === null ? 'all runs alike' : 'one outcome per task under the replay rule';
  const parts = [
    byMethod('wilson') && `Wilson for ${byMethod('wilson')}`,
    byMethod('clustered') && `clustered for ${byMethod('clustered')}`,
    byMethod('wilson-by-task') && `Wilson over tasks (${whyByTask}) for ${byMethod('wilson-by-task')}`,
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

/** Void tasks per agent and reason, then each void task, under a replay rule or void limit. */
function describeVoidTasks(view: LeaderboardView): string[] {
  if (view.replayRule === null && view.voidLimit === null) return [];
  const withVoid = view.agents.filter((a) => a.voidTasks.length > 0);
  if (withVoid.length === 0) return ['', 'Void tasks: none.'];
  const perAgent = withVoid.map((a) => {
    const reasons = Object.entries(a.voidTasksByReason).map(([reason, count]) => `${reason} ${count}`);
    return `${codeSpan(a.agent.id)}: ${a.voidTasks.length} of ${a.tasks} (${reasons.join(', ')})`;
  });
  const each = withVoid.flatMap((a) =>
    a.voidTasks.map((t) => `- ${codeSpan(a.agent.id)} ${codeSpan(t.task)}: ${t.reason}, ${escapeCell(t.detail)}`),
  );
  return ['', `Void tasks: ${perAgent.join('; ')}.`, '', ...each];
}

/** Replay agreement per agent: tasks whose replays agree / tasks whose replays were all valid. */
function describeAgreement(view: LeaderboardView): string[] {
  if (view.replayRule === null) return [];
  const perAgent = view.agents.map((a) => `${codeSpan(a.agent.id)} ${a.replay?.agreeing ?? 0}/${a.replay?.compared ?? 0}`);
  return ['', `Replay agreement (tasks agreeing / tasks compared): ${perAgent.join(', ')}.`];
}

/** A pipe would end the table cell; GFM lets a backslash escape it, even inside code. */
export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** Inline code, fenced with more backticks than the text contains in a row. */
export function codeSpan(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${escapeCell(text)}${pad}${fence}`;
}

/** The failure anatomy: its note, then a table of runs not solved per agent, class and side. */
function failureBlock(view: LeaderboardView): string[] {
  const table = failureTable(view);
  if (table === null) return [];
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [
    failureNote(view.failureAnatomy.version),
    '',
    line(table.header.map(escapeCell)),
    line(table.header.map((_, i) => (i === 0 ? ':---' : '---:'))),
    ...table.rows.map(([id, ...counts]) => line([codeSpan(id!), ...counts])),
    '',
  ];
}

/** The points table as a fenced block (its columns are already aligned). */
function pointsBlock(lines: string[]): string[] {
  return lines.length === 0 ? [] : [lines[0]!, '', '```', ...lines.slice(1), '```', ''];
}

/**
 * The task × agent matrix (the site's matrix page, as markdown): per cell the runs solved out
 * of the runs, and the void runs when there are any.
 */
function matrixBlock(view: LeaderboardView): string[] {
  if (view.tasks.length === 0 || view.agents.length === 0) return [];
  const header = ['task', ...view.agents.map((a) => codeSpan(a.agent.id))];
  const rows = view.tasks.map((row) => [
    escapeCell(row.task),
    ...row.cells.map(formatMatrixCell),
  ]);
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return ['Solved runs by task:', '', line(header), line(header.map((_, i) => (i === 0 ? ':---' : '---:'))), ...rows.map(line), ''];
}
