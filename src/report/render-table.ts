import { EMPTY, unsafeWarning } from './format-cells.js';
import { renderPoints } from './render-points.js';
import { COUNTING_NOTE, LEADERBOARD_COLUMNS } from './leaderboard-columns.js';
import type { LeaderboardView } from './leaderboard-view.js';

/** Options of {@link renderTable}. */
export interface RenderTableOptions {
  /** Emit ANSI bold for the header row. Off by default: plain text for pipes and files. */
  readonly color?: boolean;
}

const GAP = '  ';

/**
 * The leaderboard as a fixed-width terminal table in rank order, between a line naming the
 * suite, suite hash and controls digest and a note (wrapped at 100 columns) on how the numbers
 * are counted. Missing values show as `–`. Ends with a newline.
 */
export function renderTable(view: LeaderboardView, options: RenderTableOptions = {}): string {
  const header = LEADERBOARD_COLUMNS.map((column) => column.header);
  const rows = view.agents.map((line) => LEADERBOARD_COLUMNS.map((column) => column.cell(line)));
  const widths = header.map((text, i) =>
    Math.max(text.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const layout = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        return LEADERBOARD_COLUMNS[i]?.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join(GAP)
      .trimEnd();
  const bold = (text: string): string => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const warning = unsafeWarning(view.unsafeRuns);
  const lines = [
    ...(warning ? [bold(warning), ''] : []),
    describeSuite(view),
    '',
    bold(layout(header)),
    widths.map((width) => '-'.repeat(width)).join(GAP),
    ...(rows.length === 0 ? ['(no runs)'] : rows.map(layout)),
    '',
    ...withBlank(renderPoints(view)),
    ...wrap(COUNTING_NOTE, NOTE_WIDTH),
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

function withBlank(lines: string[]): string[] {
  return lines.length === 0 ? [] : [...lines, ''];
}
