import { plan } from '../../api/index.js';
import { UserError } from '../../errors.js';
import { renderPlan } from '../../report/index.js';
import { createNotes, printNote } from '../notes.js';
// the flags come as commander hands them over, strings, and are parsed here (with the flag's name in each error)
import type { PlanFlags } from '../command-options.js';
import { EXIT, placeOf, type CliIo } from '../io.js';


/**
 * `bakeoff plan [results] --target D`: tasks × runs per task for a paired comparison that detects
 * D at 80 % power, from a pilot results folder or stated assumptions; the table it computed as
 * text, or `--json`.
 */
export async function planCommand(results: string | undefined, flags: PlanFlags, io: CliIo): Promise<number> {
  if (flags.compare !== undefined && flags.compare.length !== 2) {
    throw new UserError(`--compare expects two agent ids (A B), got ${flags.compare.length}: ${flags.compare.join(' ')}`);
  }
  const notes = createNotes(io.stderr);
  const number = (flag: string, value: string | undefined, parse: (v: string) => number): number | undefined =>
    value === undefined ? undefined : named(flag, () => parse(value));
  const counts = (flag: string, value: string | undefined): number[] | undefined => (value === undefined ? undefined : named(flag, () => parseCounts(value)));
  const stated = {
    discordance: number('--discordance', flags.discordance, parseShare),
    betweenSd: number('--between-sd', flags.betweenSd, parseShare),
    withinVar: number('--within-var', flags.withinVar, parseShare),
    tasks: counts('--tasks', flags.tasks),
    runs: counts('--runs', flags.runs),
    currentTasks: number('--current-tasks', flags.currentTasks, (v) => parseCounts(v)[0]!),
    maxTasks: number('--max-tasks', flags.maxTasks, (v) => parseCounts(v)[0]!),
  };
  const outcome = await plan({
    ...placeOf(io),
    target: named('--target', () => parseDifference(flags.target)),
    ...(results !== undefined ? { results } : {}),
    ...(flags.compare ? { compare: [flags.compare[0]!, flags.compare[1]!] as const } : {}),
    ...Object.fromEntries(Object.entries(stated).filter(([, v]) => v !== undefined)),
    onEvent: (event) => printNote(notes, event),
  });
  io.stdout.write(flags.json ? `${JSON.stringify({ schemaVersion: 1, ...outcome }, null, 2)}\n` : renderPlan(outcome.plan, outcome.source));
  return EXIT.ok;
}

/** Runs a parser; its complaint becomes a UserError naming the flag. */
function named<T>(flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new UserError(`${flag}: ${(error as Error).message}`);
  }
}

/** `--target`: a difference in share solved, `0.15` or `15%`. */
export function parseDifference(value: string): number {
  const percent = /^\s*([\d.]+)\s*%\s*$/.exec(value);
  const n = percent ? Number(percent[1]) / 100 : Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1) {
    throw new Error(`expected a difference in share solved in (0, 1], e.g. 0.15 or 15%, received ${JSON.stringify(value)}`);
  }
  return n;
}

/** A number from 0 to 1. */
export function parseShare(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new Error(`expected a number from 0 to 1, received ${JSON.stringify(value)}`);
  return n;
}

/** `10,20,30`: whole numbers ≥ 1, comma-separated. */
export function parseCounts(value: string): number[] {
  const parts = value.split(',').map((p) => p.trim());
  const counts = parts.map(Number);
  if (parts.some((p) => p === '') || counts.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`expected whole numbers >= 1 separated by commas, e.g. 10,20,30, received ${JSON.stringify(value)}`);
  }
  return counts;
}
