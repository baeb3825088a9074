import { mcnemarMdd, mcnemarPower, MCNEMAR_MIN_TASKS, POWER_ALPHA, POWER_TARGET } from '../stats/mcnemar-power.js';
import { pairedTMdd, pairedTSe } from '../stats/paired-t-power.js';
import { studentTQuantile } from '../stats/student-t-quantile.js';

/** What a plan assumes about the two agents (from a pilot bake or stated); null: not known. */
export interface PlanAssumptions {
  /** ψ: share of tasks one run of each agent would split on (A solves, B not, or the other way). */
  readonly discordance: number | null;
  /** sd_b: standard deviation of the true per-task differences in share solved. */
  readonly betweenSd: number | null;
  /** w: mean within-task variance pA(1 − pA) + pB(1 − pB) (0 … 0.5). */
  readonly withinVar: number | null;
}

/** Options of {@link planBake}. */
export interface PlanOptions {
  /** The difference in share solved to detect (0.15 = 15 points), in (0, 1]. */
  readonly target: number;
  readonly assumptions: PlanAssumptions;
  /** The table's rows (tasks) and columns (runs per task); defaults below. */
  readonly tasks?: readonly number[];
  readonly runs?: readonly number[];
  /** The tasks the suite has now (a pilot's), for "with your N tasks"; null: not known. */
  readonly currentTasks?: number | null;
  /** The largest suite the search looks at (default 500). */
  readonly maxTasks?: number;
}

/** How one column of the plan is sized: exact McNemar needs ψ, the paired t needs sd_b and w. */
export type PlanMethod = 'exact-mcnemar' | 'paired-t';

/** One cell of the plan's table: the MDD of `tasks` × `runsPerTask`. */
export interface PlanCell {
  readonly tasks: number;
  readonly runsPerTask: number;
  /** Null: no difference is detectable at 80 % power with this design. */
  readonly mdd: number | null;
}

/** For one number of runs per task: the fewest tasks that detect the target. */
export interface PlanColumn {
  readonly runsPerTask: number;
  readonly method: PlanMethod;
  /** Null: not within `maxTasks`. */
  readonly tasksNeeded: number | null;
  /** tasksNeeded × runsPerTask: runs per agent. */
  readonly runsPerAgent: number | null;
  /** The MDD at tasksNeeded. */
  readonly mdd: number | null;
}

/** A proposed design: tasks × runs per task. */
export interface PlanDesign {
  readonly tasks: number;
  readonly runsPerTask: number;
  readonly runsPerAgent: number;
  readonly mdd: number;
  readonly method: PlanMethod;
}

/** What `bakeoff plan` computed; renderers print it, `--json` is it. */
export interface BakePlan {
  readonly target: number;
  readonly alpha: number;
  readonly power: number;
  readonly assumptions: PlanAssumptions;
  /** Rows: tasks; columns: runs per task (only those whose method the assumptions allow). */
  readonly table: { readonly tasks: readonly number[]; readonly runs: readonly number[]; readonly methods: readonly PlanMethod[]; readonly cells: readonly (readonly PlanCell[])[] };
  /** Per column, the fewest tasks that reach the target. */
  readonly columns: readonly PlanColumn[];
  /** The cheapest column (fewest runs per agent, then fewest tasks); null when none reaches the target. */
  readonly proposal: PlanDesign | null;
  /** With the suite's current tasks: the fewest runs per task (≤ 100) that reach the target, the MDD that more runs can never beat. */
  readonly atCurrentSize: { readonly tasks: number; readonly runsPerTask: number | null; readonly floor: number | null } | null;
  /** What the plan assumed or left out, for people. */
  readonly notes: readonly string[];
}

export const DEFAULT_PLAN_TASKS = [10, 20, 30, 40, 50, 75, 100] as const;
export const DEFAULT_PLAN_RUNS = [1, 2, 3, 5, 10] as const;
const MAX_RUNS = 100;

/**
 * Proposes tasks × runs per task for a paired comparison that should detect `target` at 80 %
 * power and α = 0.05 (notes/statistics.md, "Power"): one run per task is sized by the exact
 * McNemar test at the discordance ψ (a net gap d needs ψ ≥ d, so ψ is raised to d when it is
 * smaller), several runs by the paired t on per-task shares with sd_b and w (w shrinks with
 * runs, sd_b does not: past a few runs per task, more tasks help more than more runs). With one
 * run per task and no ψ, the paired t with k = 1 is used. Pure.
 */
export function planBake(options: PlanOptions): BakePlan {
  const { target, assumptions } = options;
  if (!(target > 0 && target <= 1)) throw new RangeError(`planBake: target must be in (0, 1], got ${target}`);
  const maxTasks = options.maxTasks ?? 500;
  const hasT = assumptions.betweenSd !== null && assumptions.withinVar !== null;
  const methodFor = (k: number): PlanMethod | null => (k === 1 && assumptions.discordance !== null ? 'exact-mcnemar' : hasT ? 'paired-t' : null);
  const notes: string[] = [];
  const runs = [...new Set(options.runs ?? DEFAULT_PLAN_RUNS)].sort((x, y) => x - y).filter((k) => methodFor(k) !== null);
  const dropped = (options.runs ?? DEFAULT_PLAN_RUNS).filter((k) => methodFor(k) === null);
  if (dropped.length > 0) notes.push(`left out ${dropped.join(', ')} run(s) per task: sizing several runs per task needs the between-task sd and the within-task variance`);
  const current = options.currentTasks ?? null;
  const rows = [...new Set([...(options.tasks ?? DEFAULT_PLAN_TASKS), ...(current !== null && current >= 2 ? [current] : [])])].sort((x, y) => x - y);
  const mddOf = (tasks: number, k: number): number | null => {
    const method = methodFor(k)!;
    if (method === 'exact-mcnemar') return tasks < MCNEMAR_MIN_TASKS ? null : mcnemarMdd(tasks, assumptions.discordance!).mdd;
    if (tasks < 2) return null;
    const mdd = pairedTMdd({ tasks, runsPerTask: k, betweenSd: assumptions.betweenSd!, withinVar: assumptions.withinVar! });
    return mdd <= 1 ? mdd : null;
  };
  const cells = rows.map((tasks) => runs.map((k) => ({ tasks, runsPerTask: k, mdd: mddOf(tasks, k) })));
  const columns = runs.map((k): PlanColumn => {
    const method = methodFor(k)!;
    const tasksNeeded = method === 'exact-mcnemar' ? mcnemarTasksNeeded(target, assumptions.discordance!, maxTasks) : pairedTTasksNeeded(target, k, assumptions, maxTasks);
    return { runsPerTask: k, method, tasksNeeded, runsPerAgent: tasksNeeded === null ? null : tasksNeeded * k, mdd: tasksNeeded === null ? null : mddOf(tasksNeeded, k) };
  });
  const reachable = columns.filter((c) => c.tasksNeeded !== null);
  const best = [...reachable].sort((x, y) => x.runsPerAgent! - y.runsPerAgent! || x.tasksNeeded! - y.tasksNeeded!)[0];
  const proposal = best ? { tasks: best.tasksNeeded!, runsPerTask: best.runsPerTask, runsPerAgent: best.runsPerAgent!, mdd: best.mdd ?? target, method: best.method } : null;
  if (assumptions.discordance !== null && assumptions.discordance < target && runs.includes(1)) {
    notes.push(`one run per task: a net gap of ${target.toFixed(2)} needs a discordance of at least ${target.toFixed(2)}; the search raised the assumed ${assumptions.discordance.toFixed(2)} to it`);
  }
  if (hasT && assumptions.betweenSd! > 0) {
    notes.push(`the between-task sd (${assumptions.betweenSd!.toFixed(3)}) does not shrink with runs per task: past about 5 runs, more tasks help more than more runs`);
  }
  return {
    target,
    alpha: POWER_ALPHA,
    power: POWER_TARGET,
    assumptions,
    table: { tasks: rows, runs, methods: runs.map((k) => methodFor(k)!), cells },
    columns,
    proposal,
    atCurrentSize: current === null || current < 2 ? null : atSize(current, target, assumptions, methodFor),
    notes,
  };
}

/** With `tasks` tasks: the fewest runs per task that reach the target, and the MDD no number of runs can beat. */
function atSize(tasks: number, target: number, a: PlanAssumptions, methodFor: (k: number) => PlanMethod | null): NonNullable<BakePlan['atCurrentSize']> {
  const factor = tTerms(tasks);
  let runsPerTask: number | null = null;
  for (let k = 1; k <= MAX_RUNS && runsPerTask === null; k++) {
    const method = methodFor(k);
    if (method === 'exact-mcnemar') {
      if (tasks >= MCNEMAR_MIN_TASKS && mcnemarPowerAt(tasks, target, a.discordance!) >= POWER_TARGET) runsPerTask = k;
    } else if (method === 'paired-t' && factor * pairedTSe({ tasks, runsPerTask: k, betweenSd: a.betweenSd!, withinVar: a.withinVar! }) <= target) {
      runsPerTask = k;
    }
  }
  const floor = a.betweenSd === null ? null : factor * a.betweenSd / Math.sqrt(tasks);
  return { tasks, runsPerTask, floor };
}

/** Power of the exact McNemar test at a net gap d with discordance ψ (raised to d when smaller). */
function mcnemarPowerAt(tasks: number, d: number, discordance: number): number {
  const psi = Math.max(discordance, d);
  return mcnemarPower(tasks, (psi + d) / 2, (psi - d) / 2);
}

/**
 * Fewest tasks whose exact-McNemar power at the target stays at least 0.8 for ten task counts in
 * a row (the exact test's power is a sawtooth in the number of tasks). The scan starts a little
 * below the normal approximation's sample size (Connor 1987) and steps down while it holds.
 */
function mcnemarTasksNeeded(d: number, discordance: number, maxTasks: number): number | null {
  const psi = Math.max(discordance, d);
  const z = (p: number): number => studentTQuantile(p, 1e7);
  const approx = ((z(1 - POWER_ALPHA / 2) * Math.sqrt(psi) + z(POWER_TARGET) * Math.sqrt(Math.max(0, psi - d * d))) / d) ** 2;
  const holds = (tasks: number): boolean => {
    for (let t = tasks; t < tasks + 10; t++) if (mcnemarPowerAt(t, d, psi) < POWER_TARGET) return false;
    return true;
  };
  let tasks = Math.max(MCNEMAR_MIN_TASKS, Math.floor(approx * 0.8));
  while (tasks > MCNEMAR_MIN_TASKS && holds(tasks - 1)) tasks--;
  for (; tasks <= maxTasks; tasks++) if (holds(tasks)) return tasks;
  return null;
}

/** Fewest tasks (≥ 2) whose paired-t MDD with k runs per task is at most the target (the MDD falls with tasks). */
function pairedTTasksNeeded(d: number, k: number, a: PlanAssumptions, maxTasks: number): number | null {
  const ok = (tasks: number): boolean => pairedTMdd({ tasks, runsPerTask: k, betweenSd: a.betweenSd!, withinVar: a.withinVar! }) <= d;
  if (!ok(maxTasks)) return null;
  let low = 1;
  let high = maxTasks;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (ok(mid)) high = mid;
    else low = mid;
  }
  return high;
}

/** t(1 − α/2, T − 1) + t(power, T − 1). */
function tTerms(tasks: number): number {
  return studentTQuantile(1 - POWER_ALPHA / 2, tasks - 1) + studentTQuantile(POWER_TARGET, tasks - 1);
}
