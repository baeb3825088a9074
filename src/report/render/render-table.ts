import { describeBudget } from '../view/budget-use.js';
import { describeQuota } from '../view/quota-use.js';
import { wrapWords } from '../../util/index.js';
import { describeMetering } from './describe-metering.js';
import { describeNetwork, networkLabel } from './describe-network.js';
import { EMPTY, unsafeWarning } from './format-cells.js';
import { renderPoints } from './render-points.js';
import { columnsForView } from './columns-for-view.js';
import { describeRules, describeRulesShort } from './describe-rules.js';
import { fitLeaderboard } from './fit-leaderboard.js';
import { describeFailures } from './describe-failures.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';

/** Options of {@link renderTable}. */
export interface RenderTableOptions {
  /** Emit ANSI bold for the header row. Off by default: plain text for pipes and files. */
  readonly color?: boolean;
  /**
   * Fit a screen this many characters wide (see `fitLeaderboard`): columns leave or get short
   * headers, hashes show as 12-character prefixes, and every line is wrapped to the width.
   * Undefined (the default): every column, full hashes, as for pipes and files.
   */
  readonly width?: number;
  /** Appended to the line naming the columns left out, e.g. how to see them all. */
  readonly wideHint?: string;
  /**
   * The notes on how each number is counted (the share and its interval, void as failed,
   * points, the replay rule and void limit) under the table. Default true; false leaves them
   * out, with `explainHint` (e.g. how to see them) in their place.
   */
  readonly explain?: boolean;
  readonly explainHint?: string;
}

const GAP = '  ';
const NOTE_WIDTH = 100;
const SHORT_HASH = 12;

/**
 * The leaderboard as a fixed-width terminal table in rank order, between lines naming the
 * suite, suite hash, controls digest, replay rule and void limit and a note (wrapped at 100
 * columns) on how the numbers are counted. When the ranking was refused, a line on top says
 * why and every rank shows as `–`. Missing values show as `–`. With `width`, fitted to the
 * screen, and a line under the table names the columns left out. Ends with a newline.
 */
export function renderTable(view: LeaderboardView, options: RenderTableOptions = {}): string {
  const fitted = fitLeaderboard(columnsForView(view), view.agents, options.width, GAP.length);
  const { headers, rows } = fitted;
  const widths = headers.map((text, i) => Math.max(text.length, ...rows.map((row) => (row[i] ?? '').length)));
  const layout = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        return fitted.aligns[i] === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join(GAP)
      .trimEnd();
  const bold = (text: string): string => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const fit = options.width;
  const noteWidth = Math.min(NOTE_WIDTH, fit ?? NOTE_WIDTH);
  const wrapped = (text: string, indent = '', margin = 0): string[] => (fit === undefined ? [text] : wrapWords(text, fit - margin, indent));
  const warning = unsafeWarning(view.unsafeRuns);
  const refusal = view.ranking.refused ? `NOT RANKED: ${view.ranking.reason}` : null;
  const leftOut = [
    ...(fitted.silent.length === 0 ? [] : wrapped(`not shown (nothing to show for these agents): ${fitted.silent.join(', ')}`)),
    ...(fitted.dropped.length === 0 ? [] : wrapped(`left out to fit ${fit} columns: ${fitted.dropped.join(', ')}${options.wideHint ? `; ${options.wideHint}` : ''}`)),
  ];
  const lines = [
    ...(warning ? [...wrapped(warning).map(bold), ''] : []),
    ...(refusal ? [...wrapWords(refusal, noteWidth).map(bold), ''] : []),
    ...describeSuite(view, fit),
    ...wrapped(describeRulesShort(view)),
    '',
    bold(layout(headers)),
    widths.map((width) => '-'.repeat(width)).join(GAP),
    ...(rows.length === 0 ? ['(no runs)'] : rows.map(layout)),
    ...leftOut,
    '',
    ...withBlank(renderPoints(view)),
    ...withBlank(failureLines(view, fit, noteWidth)),
    ...(options.explain === false
      ? options.explainHint ? [options.explainHint] : []
      : [...describeRules(view), ...describePoints(view)].flatMap((note) => wrapWords(note, noteWidth))),
    ...describeMetering(view.metering).flatMap((note) => wrapWords(note, noteWidth)),
    ...describeNetwork(view).flatMap((note) => wrapWords(note, noteWidth)),
    ...describeBudget(view.budget).flatMap((note) => wrapWords(note, noteWidth)),
    ...describeQuota(view.quota).flatMap((note) => wrapWords(note, noteWidth)),
    ...describeVoidTasks(view).flatMap((line) => (line.startsWith('  ') ? wrapped(line.slice(2), '    ', 2).map((l) => `  ${l}`) : [line])),
  ];
  return `${lines.join('\n')}\n`;
}

/** Suite, hash, controls and standard runs on one line; fitted, 12-character hashes when it does not fit, wrapped between its parts. */
function describeSuite(view: LeaderboardView, width: number | undefined): string[] {
  const parts = (hash: (h: string) => string): string[] => [
    ...(view.suite === null ? ['no suite'] : [`suite ${view.suite.id}`, `hash ${hash(view.suite.hash)}`]),
    `controls ${view.controlsDigest === null ? EMPTY : hash(view.controlsDigest)}`,
    ...(networkLabel(view) === null ? [] : [networkLabel(view)!]),
    `standard ${view.standardRunsPerTask} runs/task`,
  ];
  const full = parts((h) => h).join(GAP);
  if (width === undefined || full.length <= width) return [full];
  const lines: string[] = [];
  for (const part of parts((h) => h.slice(0, SHORT_HASH))) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + GAP.length + part.length <= width) lines[lines.length - 1] = `${last}${GAP}${part}`;
    else lines.push(part);
  }
  return lines;
}

/** Each void task per agent, with its reason and detail (only under a replay rule or void limit). */
function describeVoidTasks(view: LeaderboardView): string[] {
  if (view.replayRule === null && view.voidLimit === null) return [];
  const lines = view.agents.flatMap((a) =>
    a.voidTasks.map((t) => `  ${a.agent.id}  ${t.task}  ${t.reason}: ${t.detail}`),
  );
  return lines.length === 0 ? [] : ['', 'Void tasks:', ...lines];
}

/** What the points column counts, when it is shown. */
function describePoints(view: LeaderboardView): string[] {
  if (!view.agents.some((a) => a.maxPoints > 0)) return [];
  return [
    'Points = expected tests (or generated checks) that passed, summed over valid runs, out of all of them. ' +
      'A run is solved only with every point, so a failed run can still hold most (the tests that passed before the change).',
  ];
}

/** The failure anatomy: its note wrapped, its table as is (cut to the screen's width when fitted). */
function failureLines(view: LeaderboardView, fit: number | undefined, noteWidth: number): string[] {
  const [note, ...table] = describeFailures(view);
  if (note === undefined) return [];
  return [...wrapWords(note, noteWidth), ...table.map((line) => (fit === undefined || line.length <= fit ? line : `${line.slice(0, fit - 1)}…`))];
}

function withBlank(lines: string[]): string[] {
  return lines.length === 0 ? [] : [...lines, ''];
}
