import type { FailureTally } from '../view/failure-anatomy.js';
import { FAILURE_CLASS_INFO, FAILURE_CLASSES, FAILURE_SIDES, type FailureClass } from '../view/failure-classes.js';
import type { LeaderboardView } from '../view/leaderboard-view.js';

/** The failure anatomy as a table: header and one row per agent (classes that occur, then the sides). */
export interface FailureTable {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** The classes the table has columns for, in order. */
  readonly classes: readonly FailureClass[];
}

/** The sentence above the failure table: what the classes and sides mean. */
export function failureNote(version: number): string {
  return (
    `Why runs were not solved (failure anatomy v${version}, from the stored tests, change, sessions and model requests; void runs included). ` +
    'Sides: agent = its change or session fell short; harness = the CLI broke; model = the model or its API failed; instrument = void for a cause outside the agent.'
  );
}

/** One row per agent in rank order: its id, runs not solved, a count per class that occurs anywhere, and per side. Null when every run was solved. */
export function failureTable(view: LeaderboardView): FailureTable | null {
  if (view.agents.every((a) => a.failures.notSolved === 0)) return null;
  const classes = FAILURE_CLASSES.filter((cls) => view.agents.some((a) => (a.failures.byClass[cls] ?? 0) > 0));
  const sides = FAILURE_SIDES.filter((side) => view.agents.some((a) => (a.failures.bySide[side] ?? 0) > 0));
  const header = ['agent', 'not solved', ...classes.map((cls) => FAILURE_CLASS_INFO[cls].label), ...sides.map((side) => `side: ${side}`)];
  const rows = view.agents.map((a) => [
    a.agent.id,
    `${a.failures.notSolved}/${a.runs}`,
    ...classes.map((cls) => count(a.failures, cls)),
    ...sides.map((side) => String(a.failures.bySide[side] ?? 0)),
  ]);
  return { header, rows, classes };
}

function count(tally: FailureTally, cls: FailureClass): string {
  return String(tally.byClass[cls] ?? 0);
}

/** The failure table as aligned text lines (numbers right-aligned), under its note; none when every run was solved. */
export function describeFailures(view: LeaderboardView): string[] {
  const table = failureTable(view);
  if (table === null) return [];
  const all = [table.header, ...table.rows];
  const widths = table.header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const line = (row: readonly string[]): string => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  return [failureNote(view.failureAnatomy.version), line(table.header), ...table.rows.map(line)];
}
