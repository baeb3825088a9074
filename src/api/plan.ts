import { UserError } from '../errors.js';
import { planBake, type BakePlan, type PairedComparison, type PlanAssumptions, type PlanSource } from '../report/index.js';
import type { NoteEvent } from './events.js';
import type { Place } from './paths.js';
import { report } from './report.js';

/** `bakeoff plan`: a target difference, and a pilot results folder or stated assumptions. */
export interface PlanRequest extends Place {
  /** The difference in share solved to detect, in (0, 1] (0.15 = 15 points). */
  readonly target: number;
  /** A pilot bake's results folder: the variances are estimated from two of its agents. */
  readonly results?: string;
  /** The pilot's two agents (default: the top two of its leaderboard). */
  readonly compare?: readonly [string, string];
  /** Stated assumptions; each one given wins over the pilot's estimate. */
  readonly discordance?: number;
  readonly betweenSd?: number;
  readonly withinVar?: number;
  /** The table's rows (tasks) and columns (runs per task). */
  readonly tasks?: readonly number[];
  readonly runs?: readonly number[];
  /** The suite's tasks now (default: the pilot's); "with your N tasks". */
  readonly currentTasks?: number;
  /** The largest suite the search looks at (default 500). */
  readonly maxTasks?: number;
  readonly onEvent?: (event: NoteEvent) => void;
}

/** A plan, where its assumptions came from, and the pilot comparison it was estimated from. */
export interface PlanOutcome {
  readonly plan: BakePlan;
  readonly source: PlanSource;
  /** The pilot's two agents, its size and what it showed; null without a pilot. */
  readonly pilot: {
    readonly results: string;
    readonly a: string;
    readonly b: string;
    readonly tasks: number;
    readonly runsPerTask: number;
    readonly observedGap: number | null;
  } | null;
}

/**
 * Proposes tasks × runs per task for a paired comparison (see `planBake`): from a pilot results
 * folder (the variances its two agents showed) and/or stated assumptions. Refuses (UserError) a
 * target outside (0, 1], a plan with nothing to size it by, and a pilot that shows no variance at
 * all (it would plan as if any gap were certain).
 */
export async function plan(request: PlanRequest): Promise<PlanOutcome> {
  if (!(request.target > 0 && request.target <= 1)) {
    throw new UserError(`--target: expected a difference in share solved in (0, 1] (0.15 or 15%), received ${request.target}`);
  }
  checkStated(request);
  const pilot = request.results === undefined ? null : await pilotOf(request);
  const estimated = pilot === null ? null : pilotAssumptions(pilot.comparison, request);
  const assumptions: PlanAssumptions = {
    discordance: request.discordance ?? estimated?.discordance ?? null,
    betweenSd: request.betweenSd ?? estimated?.betweenSd ?? null,
    withinVar: request.withinVar ?? estimated?.withinVar ?? null,
  };
  if (assumptions.discordance === null && (assumptions.betweenSd === null || assumptions.withinVar === null)) {
    throw new UserError(
      'plan: nothing to size the comparison by: give a pilot results folder, or state --discordance (one run per task), ' +
        'or --between-sd and --within-var (several runs per task)',
    );
  }
  const currentTasks = request.currentTasks ?? pilot?.comparison.tasks ?? null;
  const result = planBake({
    target: request.target,
    assumptions,
    currentTasks,
    ...(request.tasks ? { tasks: request.tasks } : {}),
    ...(request.runs ? { runs: request.runs } : {}),
    ...(request.maxTasks ? { maxTasks: request.maxTasks } : {}),
  });
  const notes = [...(estimated?.notes ?? []), ...result.notes];
  const flags = { discordance: '--discordance', betweenSd: '--between-sd', withinVar: '--within-var' } as const;
  const stated = (['discordance', 'betweenSd', 'withinVar'] as const).filter((k) => request[k] !== undefined).map((k) => flags[k]);
  const source: PlanSource = pilot === null
    ? { kind: 'stated', description: 'stated' }
    : {
        kind: 'pilot',
        description: `${request.results}: ${pilot.comparison.a} vs ${pilot.comparison.b}, ${pilot.comparison.power.tasks} tasks without a void × ${pilot.comparison.power.runsPerTask} run(s)${stated.length > 0 ? `; stated: ${stated.join(', ')}` : ''}`,
      };
  return {
    plan: { ...result, notes },
    source,
    pilot: pilot === null ? null : {
      results: request.results!,
      a: pilot.comparison.a,
      b: pilot.comparison.b,
      tasks: pilot.comparison.power.tasks,
      runsPerTask: pilot.comparison.power.runsPerTask,
      observedGap: pilot.comparison.power.observedGap,
    },
  };
}

async function pilotOf(request: PlanRequest): Promise<{ comparison: PairedComparison }> {
  const place = { ...(request.cwd ? { cwd: request.cwd } : {}), ...(request.env ? { env: request.env } : {}), ...(request.onEvent ? { onEvent: request.onEvent } : {}) };
  let pair = request.compare;
  if (pair === undefined) {
    const board = await report({ ...place, results: request.results! });
    const [first, second] = board.view.agents;
    if (!first || !second) throw new UserError(`${request.results}: a pilot needs two agents to compare; it has ${board.view.agents.length}`);
    pair = [first.agent.id, second.agent.id];
  }
  const outcome = await report({ ...place, results: request.results!, compare: pair });
  if (outcome.kind !== 'comparison') throw new Error('report with compare returned no comparison');
  return { comparison: outcome.comparison };
}

/** What the pilot's comparison shows, as assumptions; a pilot that shows no variance is refused. */
function pilotAssumptions(c: PairedComparison, request: PlanRequest): PlanAssumptions & { notes: string[] } {
  const v = c.power.variances;
  if (v === null || v.tasks < 2) throw new UserError(`${request.results}: ${c.a} and ${c.b} share fewer than 2 tasks without a void: nothing to estimate from`);
  const notes: string[] = [];
  const k = c.power.runsPerTask;
  const flat = v.differenceVar === 0 && v.withinVar === 0;
  if (flat && v.oneRunDiscordance === 0 && request.discordance === undefined && request.betweenSd === undefined) {
    throw new UserError(
      `${request.results}: the pilot shows no variance at all (${c.a} and ${c.b} came out the same way on every one of its ${v.tasks} tasks, ` +
        `and no task's runs disagree), so it cannot size a difference; state the assumptions instead: --discordance, --between-sd, --within-var`,
    );
  }
  if (flat) {
    // every task the same difference and no run disagreeing: the paired t would see an SE of 0 and call any design enough
    notes.push('the pilot\'s per-task differences and runs show no variance, so several runs per task are sized only with --between-sd and --within-var');
    return { discordance: v.oneRunDiscordance, betweenSd: null, withinVar: null, notes };
  }
  if (k > 1) return { discordance: v.oneRunDiscordance, betweenSd: v.betweenSd, withinVar: v.withinVar, notes };
  // one run per task: var(d_t) holds both the between-task spread and the runs' own noise
  if (request.withinVar !== undefined) {
    notes.push(`the pilot has one run per task: the between-task sd is its var(d_t) less the stated within-task variance`);
    return { discordance: v.oneRunDiscordance, betweenSd: Math.sqrt(Math.max(0, v.differenceVar - request.withinVar)), withinVar: request.withinVar, notes };
  }
  notes.push(
    'the pilot has one run per task, so it cannot tell the between-task spread from the runs\' own noise: several runs per task are sized only with ' +
      '--within-var (and --between-sd), or from a pilot with 2 or more runs per task',
  );
  return { discordance: v.oneRunDiscordance, betweenSd: null, withinVar: null, notes };
}

function checkStated(request: PlanRequest): void {
  const bad = (name: string, value: number | undefined, max: number): void => {
    if (value !== undefined && !(value >= 0 && value <= max)) throw new UserError(`${name}: expected a number from 0 to ${max}, received ${value}`);
  };
  bad('--discordance', request.discordance, 1);
  bad('--between-sd', request.betweenSd, 1);
  bad('--within-var', request.withinVar, 0.5);
  for (const k of request.runs ?? []) if (!Number.isInteger(k) || k < 1) throw new UserError(`--runs: expected whole numbers >= 1, received ${k}`);
  for (const t of request.tasks ?? []) if (!Number.isInteger(t) || t < 2) throw new UserError(`--tasks: expected whole numbers >= 2, received ${t}`);
}
