import { fitColumns, rowWidth, type ColumnFit } from '../../util/index.js';
import { EMPTY } from './format-cells.js';
import type { LeaderboardColumn } from './leaderboard-columns.js';
import type { AgentSummary } from '../view/leaderboard-view.js';

/** The columns that always stay, however narrow the screen: who, where, and how well. */
export const KEPT_COLUMNS: readonly string[] = ['#', 'agent', 'share [95% CI]'];

/**
 * The order in which columns leave a leaderboard too wide for the screen, first to leave
 * first. Before all of them (right to left) leave the columns that say nothing for this bake:
 * every cell `–` (no token or cost data, no points), web attempts when every count is 0, harness, version and model@effort when
 * the agent id already says them (every cell is `–`, `builtin`, or a part of the id, as in
 * `claude-code:claude-opus-4-5@high`), and then the identity and run-count columns whose every
 * row reads the same (with two agents or more: `runs` when every agent ran as many). Then the derived and
 * secondary numbers (void as failed, tokens, lines, points), then the agent's identity, then
 * the replay and void-task counts, cost per fix, and last runs, solved and void: a share is
 * never shown without the void count that qualifies it unless nothing else fits.
 * {@link KEPT_COLUMNS} never leave.
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

/**
 * {@link DROP_ORDER} for a bake of model agents (some agent metered tokens): what a model
 * bake-off is about — time, cost per fix and tokens — stays longest, after the agent's
 * identity and the run counts.
 */
export const MODEL_DROP_ORDER: readonly string[] = [
  'void as failed',
  'median lines',
  'points',
  'version',
  'harness',
  'replays agree',
  'void tasks',
  'tasks solved',
  'web attempts',
  'runs',
  'model@effort',
  // the count solved repeats the share (always shown) for a reader who has the runs per task
  'solved',
  'tokens out',
  'tokens in',
  'median time',
  'cost/fix',
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
/** Columns that tell agents apart or say how they ran: when every agent reads the same, the line above the table or the agent id says it. */
const SAY_LITTLE_WHEN_SAME = new Set([...IDENTITY, 'runs']);
const MIN_AGENT_WIDTH = 8;

/** A leaderboard laid out for a width: headers, alignments and cells of the columns kept. */
export interface FittedLeaderboard {
  readonly headers: string[];
  readonly aligns: ('left' | 'right')[];
  readonly rows: string[][];
  /** Full headers of the columns left out to fit, in the order they left. */
  readonly dropped: string[];
  /** Full headers of the columns left out on a screen because they say nothing for this bake (every cell `–`, or said by the agent id). */
  readonly silent: string[];
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
  const all: FittedLeaderboard = { headers: full, aligns: columns.map((c) => c.align), rows, dropped: [], silent: [] };
  if (width === undefined) return all;
  const agentAtFull = full.indexOf('agent');
  const dropOrder = agents.some((a) => a.tokensIn !== null) ? MODEL_DROP_ORDER : DROP_ORDER;
  const orders = full.map((header, i) => dropOrderOf(header, i, rows, agentAtFull, dropOrder));
  // on a screen, the columns that say nothing for this bake go even when everything fits
  const silent = orders.flatMap((order, i) => (order === SAYS_NOTHING ? [i] : []));
  const rest = full.flatMap((_, i) => (silent.includes(i) ? [] : [i]));
  const fullWidths = widthsOf(full);
  if (rowWidth(rest.map((i) => fullWidths[i]!), gap) <= width) {
    return { headers: rest.map((i) => full[i]!), aligns: rest.map((i) => columns[i]!.align), rows: rows.map((row) => rest.map((i) => row[i]!)), dropped: [], silent: silent.map((i) => full[i]!) };
  }
  const short = full.map((header) => SHORT_HEADERS[header] ?? header);
  const widths = widthsOf(short);
  const fitted = fitColumns(
    full.map((header, i) => ({ width: widths[i]!, dropOrder: orders[i]! })),
    width,
    gap,
  );
  const stillSilent = silent.filter((i) => fitted.kept.includes(i));
  const fit = stillSilent.length === 0 ? fitted : dropAlso(fitted, stillSilent, widths, gap);
  const agentAt = full.indexOf('agent');
  const room = Math.max(MIN_AGENT_WIDTH, width - (fit.width - widths[agentAt]!));
  const cut = (cell: string, i: number): string =>
    i === agentAt && fit.width > width && cell.length > room ? `${cell.slice(0, room - 1)}…` : cell;
  return {
    headers: fit.kept.map((i) => short[i]!),
    aligns: fit.kept.map((i) => columns[i]!.align),
    rows: rows.map((row) => fit.kept.map((i) => cut(row[i]!, i))),
    dropped: fit.dropped.filter((i) => !silent.includes(i)).map((i) => full[i]!),
    silent: silent.map((i) => full[i]!),
  };
}

/** The drop order of a column that says nothing for this bake: it leaves first, and on a screen always. */
const SAYS_NOTHING = -2;
/** The drop order of a column whose every row reads the same: it leaves right after those. */
const SAME_FOR_ALL = -1;

function dropOrderOf(header: string, index: number, rows: readonly string[][], agentAt: number, dropOrder: readonly string[]): number | null {
  if (KEPT_COLUMNS.includes(header)) return null;
  if (rows.every((row) => row[index] === EMPTY)) return SAYS_NOTHING;
  if (header === 'web attempts' && rows.every((row) => row[index] === '0' || row[index] === EMPTY)) return SAYS_NOTHING;
  if (IDENTITY.has(header) && rows.every((row) => saidByAgentId(row[index]!, row[agentAt] ?? ''))) return SAYS_NOTHING;
  if (SAY_LITTLE_WHEN_SAME.has(header) && rows.length > 1 && rows.every((row) => row[index] === rows[0]![index])) return SAME_FOR_ALL;
  const at = dropOrder.indexOf(header);
  return at === -1 ? dropOrder.length : at;
}

/** `fit` with the columns `also` left out as well (they leave before the others it dropped). */
function dropAlso(fit: ColumnFit, also: readonly number[], widths: readonly number[], gap: number): ColumnFit {
  const kept = fit.kept.filter((i) => !also.includes(i));
  return { kept, dropped: [...also, ...fit.dropped], width: rowWidth(kept.map((i) => widths[i]!), gap) };
}

/** Whether a cell of an identity column adds nothing to the agent id beside it. */
function saidByAgentId(cell: string, agentId: string): boolean {
  return cell === EMPTY || cell === 'builtin' || agentId.includes(cell);
}
