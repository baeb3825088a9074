import { fitColumns, rowWidth } from '../../util/index.js';
import { EMPTY } from './format-cells.js';
import type { LeaderboardColumn } from './leaderboard-columns.js';
import type { AgentSummary } from '../view/leaderboard-view.js';

/** The columns that always stay, however narrow the screen: who, where, and how well. */
export const KEPT_COLUMNS: readonly string[] = ['#', 'agent', 'share [95% CI]'];

/**
 * The order in which columns leave a leaderboard too wide for the screen, first to leave
 * first. Before all of them (right to left) leave the columns that say nothing: every cell
 * `–` (no token or cost data, no points), web attempts when every count is 0, and harness, version and model@effort when the
 * agent id already says them (every cell is `–`, `builtin`, or a part of the id, as in
 * `claude-code:claude-opus-4-5@high`). Then the derived and secondary numbers (void as
 * failed, tokens, lines, points), then the agent's identity, then the replay and void-task
 * counts, cost per fix, and last runs, solved and void: a share is never shown without the
 * void count that qualifies it unless nothing else fits. {@link KEPT_COLUMNS} never leave.
 */
export const DROP_ORDER: readonly string[] = [
  'void as failed',
  'tokens in',
  'tokens out',
  'web attempts',
  'median lines',
  'points',
  'version',
  'harness',
  'replays agree',
  'median time',
  'void tasks',
  'tasks solved',
  'cost/fix',
  'model@effort',
  'runs',
  'solved',
  'void',
];

/** Shorter headers used once the full table does not fit (the notes below the table explain them). */
export const SHORT_HEADERS: Readonly<Record<string, string>> = {
  'model@effort': 'model',
  'void as failed': 'void=fail',
  'median time': 'time',
  'median lines': 'lines',
  'tokens in': 'tok in',
  'tokens out': 'tok out',
  'web attempts': 'web',
  'replays agree': 'agree',
  'tasks solved': 'tasks',
};

const IDENTITY = new Set(['harness', 'version', 'model@effort']);
const MIN_AGENT_WIDTH = 8;

/** A leaderboard laid out for a width: headers, alignments and cells of the columns kept. */
export interface FittedLeaderboard {
  readonly headers: string[];
  readonly aligns: ('left' | 'right')[];
  readonly rows: string[][];
  /** Full headers of the columns left out, in the order they left. */
  readonly dropped: string[];
}

/**
 * The columns and cells of a leaderboard for a screen `width` characters wide (`gap` between
 * columns), or all of them when `width` is undefined or they fit. Too wide: the headers turn
 * short ({@link SHORT_HEADERS}), columns leave by {@link DROP_ORDER}, and when the columns
 * that always stay are still too wide, agent ids are cut to fit with `…` (never below 8). Pure.
 */
export function fitLeaderboard(
  columns: readonly LeaderboardColumn[],
  agents: readonly AgentSummary[],
  width: number | undefined,
  gap: number,
): FittedLeaderboard {
  const rows = agents.map((line) => columns.map((column) => column.cell(line)));
  const full = columns.map((c) => c.header);
  const widthsOf = (headers: readonly string[]): number[] =>
    headers.map((text, i) => Math.max(text.length, ...rows.map((row) => row[i]!.length)));
  const all: FittedLeaderboard = { headers: full, aligns: columns.map((c) => c.align), rows, dropped: [] };
  if (width === undefined || rowWidth(widthsOf(full), gap) <= width) return all;
  const short = full.map((header) => SHORT_HEADERS[header] ?? header);
  const widths = widthsOf(short);
  const fit = fitColumns(
    full.map((header, i) => ({ width: widths[i]!, dropOrder: dropOrderOf(header, i, rows, full.indexOf('agent')) })),
    width,
    gap,
  );
  const agentAt = full.indexOf('agent');
  const room = Math.max(MIN_AGENT_WIDTH, width - (fit.width - widths[agentAt]!));
  const cut = (cell: string, i: number): string =>
    i === agentAt && fit.width > width && cell.length > room ? `${cell.slice(0, room - 1)}…` : cell;
  return {
    headers: fit.kept.map((i) => short[i]!),
    aligns: fit.kept.map((i) => columns[i]!.align),
    rows: rows.map((row) => fit.kept.map((i) => cut(row[i]!, i))),
    dropped: fit.dropped.map((i) => full[i]!),
  };
}

function dropOrderOf(header: string, index: number, rows: readonly string[][], agentAt: number): number | null {
  if (KEPT_COLUMNS.includes(header)) return null;
  if (rows.every((row) => row[index] === EMPTY)) return -1;
  if (header === 'web attempts' && rows.every((row) => row[index] === '0' || row[index] === EMPTY)) return -1;
  if (IDENTITY.has(header) && rows.every((row) => saidByAgentId(row[index]!, row[agentAt] ?? ''))) return -1;
  const at = DROP_ORDER.indexOf(header);
  return at === -1 ? DROP_ORDER.length : at;
}

/** Whether a cell of an identity column adds nothing to the agent id beside it. */
function saidByAgentId(cell: string, agentId: string): boolean {
  return cell === EMPTY || cell === 'builtin' || agentId.includes(cell);
}
