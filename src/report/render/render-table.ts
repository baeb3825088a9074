import { describeMetering } from './describe-metering.js';
import { EMPTY, unsafeWarning } from './format-cells.js';
import { renderPoints } from './render-points.js';
import { columnsForView } from './columns-for-view.js';
import { describeRules, describeRulesShort } from './describe-rules.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';

/** Options of {@link renderTable}. */
export interface RenderTableOptions {
  /** Emit ANSI bold for the header row. Off by default: plain text for pipes and files. */
  readonly color?: boolean;
}

const GAP = '  ';

/**
 * The leaderboard as a fixed-width terminal table in rank order, between lines naming the
 * suite, suite hash, controls digest, replay rule and void limit and a note (wrapped at 100
 * columns) on how the numbers are counted. When the ranking was refused, a line on top says
 * why and every rank shows as `–`. Missing values show as `–`. Ends with a newline.
 */
export function renderTable(view: LeaderboardView, options: RenderTableOptions = {}): string {
  const columns = columnsForView(view);
  const header = columns.map((column) => column.header);
  const rows = view.agents.map((line) => columns.map((column) => column.cell(line)));
  const widths = header.map((text, i) =>
    Math.max(text.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const layout = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        return columns[i]?.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join(GAP)
      .trimEnd();
  const bold = (text: string): string => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const warning = unsafeWarning(view.unsafeRuns);
  const refusal = view.ranking.refused ? `NOT RANKED: ${view.ranking.reason}` : null;
  const lines = [
    ...(warning ? [bold(warning), ''] : []),
    ...(refusal ? [...wrap(refusal, NOTE_WIDTH).map(bold), ''] : []),
    describeSuite(view),
    describeRulesShort(view),
    '',
    bold(layout(header)),
    widths.map((width) => '-'.repeat(width)).join(GAP),
    ...(rows.length === 0 ? ['(no runs)'] : rows.map(layout)),
    '',
    ...withBlank(renderPoints(view)),
    ...describeRules(view).flatMap((note) => wrap(note, NOTE_WIDTH)),
    ...describeMetering(view.metering).flatMap((note) => wrap(note, NOTE_WIDTH)),
    ...describeVoidTasks(view),
  ];
  return `${lines.join('\n')}\n`;
}

const NOTE_WIDTH = 100;

/** Greedy word wrap; a word longer than the width gets a line of its own. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  return line === '' ? lines : [...lines, line];
}

function describeSuite(view: LeaderboardView): string {
  const suite = view.suite === null ? 'no suite' : `suite ${view.suite.id}  hash ${view.suite.hash}`;
  const controls = `controls ${view.controlsDigest ?? EMPTY}`;
  return `${suite}  ${controls}  standard ${view.standardRunsPerTask} runs/task`;
}

/** Each void task per agent, with its reason and detail (only under a replay rule or void limit). */
function describeVoidTasks(view: LeaderboardView): string[] {
  if (view.replayRule === null && view.voidLimit === null) return [];
  const lines = view.agents.flatMap((a) =>
    a.voidTasks.map((t) => `  ${a.agent.id}  ${t.task}  ${t.reason}: ${t.detail}`),
  );
  return lines.length === 0 ? [] : ['', 'Void tasks:', ...lines];
}

function withBlank(lines: string[]): string[] {
  return lines.length === 0 ? [] : [...lines, ''];
}
