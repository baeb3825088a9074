import { mcnemarMdd, mcnemarPower, MCNEMAR_MIN_TASKS, MDD_STEP, POWER_ALPHA, POWER_TARGET } from '../stats/mcnemar-power.js';
import { pairedTMdd } from '../stats/paired-t-power.js';
import { estimateVariances, type PairedVariances } from './estimate-variances.js';

/** What a paired comparison can tell apart at its size (notes/statistics.md, "Power"). */
export interface ComparisonPower {
  /**
   * `exact-mcnemar`: one run per task (or one outcome per task under a replay rule), sized by the
   * discordance; `paired-t`: several runs per task, sized by the between- and within-task
   * variances of the per-task shares.
   */
  readonly method: 'exact-mcnemar' | 'paired-t';
  /** Two-sided significance level and power the MDD is stated at: 0.05 and 0.8. */
  readonly alpha: number;
  readonly power: number;
  /** Tasks without a void on either side: the comparison's n. */
  readonly tasks: number;
  /** Runs per task and agent the MDD assumes: the fewest either agent made of one of those tasks. */
  readonly runsPerTask: number;
  /** Share of the tasks one agent won and the other lost (exact McNemar; under paired t, the task-level share). */
  readonly discordance: number;
  /** paired-t: sd_b = sqrt(max(0, var(d_t) − w̄/k)), and w̄, the mean of pA(1 − pA) + pB(1 − pB) over tasks; null for exact McNemar. */
  readonly betweenSd: number | null;
  readonly withinVar: number | null;
  /**
   * The minimum detectable difference in share solved (0.31 = 31 points); null when no
   * difference is detectable at this size (see `why`).
   */
  readonly mdd: number | null;
  /**
   * `estimate`: from what the bake observed. `lower-bound`: the bake showed no variance to size a
   * difference by, so the MDD is the most favourable case's (every discordant task won by the
   * same side) — the true one is at least this.
   */
  readonly mddKind: 'estimate' | 'lower-bound';
  /** The per-task variances the bake showed (what `bakeoff plan` starts from); null without a valid task. */
  readonly variances: PairedVariances | null;
  /** |mean paired difference|; null with fewer than 2 tasks. */
  readonly observedGap: number | null;
  /** The observed gap is at least a detectable difference estimated from the bake. */
  readonly distinguishable: boolean;
  /** Why the MDD is missing or only a bound, in words; null for a plain estimate. */
  readonly why: string | null;
  /** The sentence every rendering shows (ends with "not distinguishable at this size." when the gap is inside the MDD). */
  readonly sentence: string;
}

/** The comparison's valid tasks and results the power is read from. */
export interface ComparisonPowerInput {
  readonly a: string;
  readonly b: string;
  /** Per valid task (no void on either side): A's and B's run scores (0/1 each). */
  readonly scores: readonly (readonly [readonly number[], readonly number[]])[];
  readonly aWins: number;
  readonly bWins: number;
  /** The mean paired difference A − B over the valid tasks; null with fewer than 2. */
  readonly meanDifference: number | null;
  /** Under a replay rule a task has one outcome, its replays' majority (said so in the sentence). */
  readonly replayRule?: boolean;
}

/**
 * The minimum detectable difference of a paired comparison at 80 % power and α = 0.05, from what
 * the bake observed, and whether the observed gap is inside it. One run per task: the exact
 * McNemar MDD at the observed discordance. Several: the paired-t MDD with sd_b² = max(0,
 * var(d_t) − w̄/k). When the bake shows no variance at all (every task the same way), the
 * estimate would be 0 and look certain: the sign test on the tasks is used instead, and with no
 * discordant task its most favourable case gives a lower bound. Pure.
 */
export function comparisonPower(input: ComparisonPowerInput): ComparisonPower {
  const tasks = input.scores.length;
  const runsPerTask = tasks === 0 ? 1 : Math.min(...input.scores.map(([a, b]) => Math.min(a.length, b.length)));
  const discordant = input.aWins + input.bWins;
  const discordance = tasks === 0 ? 0 : discordant / tasks;
  const observedGap = input.meanDifference === null ? null : Math.abs(input.meanDifference);
  const variances = tasks === 0 ? null : estimateVariances(input.scores, runsPerTask);
  const base = { alpha: POWER_ALPHA, power: POWER_TARGET, tasks, runsPerTask, discordance, variances, observedGap };
  const says = (found: Omit<ComparisonPower, keyof typeof base | 'sentence' | 'distinguishable'>): ComparisonPower => {
    const distinguishable = found.mdd !== null && found.mddKind === 'estimate' && observedGap !== null && observedGap >= found.mdd - 1e-12;
    const result = { ...base, ...found, distinguishable };
    return { ...result, sentence: powerSentence(result, input) };
  };
  if (runsPerTask > 1 && tasks >= 2) {
    const { betweenSd, withinVar } = variances!;
    if (betweenSd > 0 || withinVar > 0) {
      const mdd = pairedTMdd({ tasks, runsPerTask, betweenSd, withinVar });
      return says({ method: 'paired-t', betweenSd, withinVar, mdd: mdd <= 1 ? mdd : null, mddKind: 'estimate', why: mdd <= 1 ? null : 'even a difference of 1 (every run of one agent solved, none of the other) would be detected less than 80 % of the time' });
    }
    const signTest = mcnemarVerdict(tasks, discordance);
    const flat = 'no run varied (every task has the same difference and no task\'s runs disagree), so the paired t has no variance to work with and the sign test on the tasks sizes it instead';
    return says({ method: 'exact-mcnemar', betweenSd: 0, withinVar: 0, ...signTest, why: signTest.why === null ? flat : `${flat}; ${signTest.why}` });
  }
  return says({ method: 'exact-mcnemar', betweenSd: null, withinVar: null, ...mcnemarVerdict(tasks, discordance) });
}

/** The exact-McNemar MDD of `tasks` tasks at `discordance`, or why there is none. */
function mcnemarVerdict(tasks: number, discordance: number): Pick<ComparisonPower, 'mdd' | 'mddKind' | 'why'> {
  if (tasks < MCNEMAR_MIN_TASKS) {
    return { mdd: null, mddKind: 'estimate', why: `the exact McNemar test cannot reach p ≤ 0.05 with fewer than ${MCNEMAR_MIN_TASKS} tasks, even if every task went one way` };
  }
  if (discordance === 0) {
    const bound = mcnemarBestCase(tasks);
    return {
      mdd: bound,
      mddKind: 'lower-bound',
      why: `no task came out differently for the two agents (discordance 0), so the bake shows no variance to size a difference by and its 95 % interval is a single point — not certainty; in the most favourable case (every discordant task won by the same side) a difference below ${formatPoints(bound)} could not be detected with ${tasks} tasks`,
    };
  }
  const { mdd } = mcnemarMdd(tasks, discordance);
  return mdd === null
    ? { mdd: null, mddKind: 'estimate', why: `even a gap as large as the discordance (${discordance.toFixed(2)}: every discordant task won by the same side) would be detected less than 80 % of the time` }
    : { mdd, mddKind: 'estimate', why: null };
}

/** The smallest d on the grid with power ≥ 0.8 when every discordant task goes one way (p10 = d, p01 = 0). */
export function mcnemarBestCase(tasks: number): number {
  for (let i = 1; i * MDD_STEP <= 1 + 1e-9; i++) {
    const d = Math.min(1, i * MDD_STEP);
    if (mcnemarPower(tasks, d, 0) >= POWER_TARGET) return d;
  }
  return 1;
}

function powerSentence(p: Omit<ComparisonPower, 'sentence'>, input: ComparisonPowerInput): string {
  const perTask = input.replayRule ? 'one outcome per task (its replays\' majority)' : p.runsPerTask === 1 ? 'one run per task' : `${p.runsPerTask} runs per task`;
  const design = `With ${p.tasks} task${p.tasks === 1 ? '' : 's'} without a void and ${perTask}`;
  const gap = p.observedGap === null ? 'no gap could be measured' : `the observed gap of ${formatPoints(p.observedGap)}`;
  if (p.mdd === null) {
    return `${design}, no difference is detectable at 80 % power and α = 0.05: ${p.why}. ${input.a} and ${input.b} are not distinguishable at this size.`;
  }
  const sizedBy = p.method === 'exact-mcnemar'
    ? p.betweenSd === null ? `exact McNemar, discordance ${p.discordance.toFixed(2)}` : 'sign test on the tasks'
    : `paired t, between-task sd ${p.betweenSd!.toFixed(2)}, within-task variance ${p.withinVar!.toFixed(2)}`;
  if (p.mddKind === 'lower-bound') {
    return `${design}, the minimum detectable difference at 80 % power and α = 0.05 is at least ${formatPoints(p.mdd)} (${sizedBy}): ${p.why}. ${capitalize(gap)} is inside it: ${input.a} and ${input.b} are not distinguishable at this size.`;
  }
  const stated = `${design}, the minimum detectable difference at 80 % power and α = 0.05 is ${formatPoints(p.mdd)} (${sizedBy}${p.why ? `: ${p.why}` : ''})`;
  return p.distinguishable
    ? `${stated}; ${gap} is at least that large, so a gap like it is detectable at this size (whether this one is real is the test's to say).`
    : `${stated}; ${gap} is inside it: ${input.a} and ${input.b} are not distinguishable at this size.`;
}

/** `0.31 (31 points)`: a difference in share solved, and in percentage points. */
export function formatPoints(d: number): string {
  const points = d * 100;
  return `${d.toFixed(2)} (${Number.isInteger(Math.round(points * 10) / 10) ? Math.round(points) : points.toFixed(1)} points)`;
}

function capitalize(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
