import type { RunRecord, VoidReason } from '../../types.js';
import { compareText } from '../common/compare-text.js';
import { detectMixed } from './detect-mixed.js';
import { exactMcNemar } from '../stats/exact-mcnemar.js';
import { formatPairedSentence } from '../common/format-paired-sentence.js';
import type { Interval } from '../stats/interval.js';
import { pairedDifference } from '../stats/paired-difference.js';
import { scoredRuns } from './budget-use.js';
import { comparisonPower, type ComparisonPower } from './comparison-power.js';
import { readReportControls, type ReplayRule } from './read-report-controls.js';
import { scoreTasks, type TaskScore } from './score-tasks.js';
import { classifyRuns, compareFailures, tallyFailures, type FailureDifference, type FailureTally } from './failure-anatomy.js';
import type { FailureClass } from './failure-classes.js';
import type { FailureEvidence } from './failure-evidence.js';

/** Options of {@link comparePaired}. */
export interface ComparePairedOptions {
  /** Agent ids. */
  readonly a: string;
  readonly b: string;
  /** The controls both agents ran under: their replay rule and void limit apply. */
  readonly controls?: unknown;
  /** Run id → what the store holds about a run that was not solved (see summarize's `evidence`). */
  readonly evidence?: ReadonlyMap<string, FailureEvidence>;
}

/** Who won one task. */
export type PairedResult = 'a-wins' | 'b-wins' | 'tie' | 'void';

/** One task of a paired comparison. */
export interface PairedTask {
  readonly task: string;
  /** `void` when either side is void on the task (or never ran it); else the higher share wins. */
  readonly result: PairedResult;
  /** A's share solved on the task (see scoreTasks); null when void for A. */
  readonly aShare: number | null;
  readonly bShare: number | null;
  /** Why the task is void for A: its void reason, or `no-runs`; null when A has a share. */
  readonly aVoid: VoidReason | 'no-runs' | null;
  readonly bVoid: VoidReason | 'no-runs' | null;
  /** The failure classes of A's runs of the task that were not solved (each once, in run order). */
  readonly aFailures: readonly FailureClass[];
  readonly bFailures: readonly FailureClass[];
}

/** A paired comparison of two agents on the same tasks (DESIGN.md §1 item 2). */
export interface PairedComparison {
  readonly a: string;
  readonly b: string;
  readonly suite: { readonly id: string; readonly hash: string };
  readonly controlsDigest: string;
  readonly replayRule: ReplayRule | null;
  readonly voidLimit: number | null;
  /** Fewest and most runs either agent made of one task it ran. */
  readonly attemptsPerTask: { readonly min: number; readonly max: number };
  /** Tasks either agent ran: aWins + bWins + ties + void. */
  readonly tasks: number;
  readonly aWins: number;
  readonly bWins: number;
  readonly ties: number;
  readonly void: number;
  /** More void tasks than the void limit: the counts stand, but no winner may be declared. */
  readonly overVoidLimit: boolean;
  /** Exact McNemar (two-sided sign test) on the discordant tasks: exactMcNemar(aWins, bWins). */
  readonly pValue: number;
  /**
   * Mean over non-void tasks of A's share − B's share (positive: A solved more), with its 95%
   * t interval (pairedDifference); null with fewer than 2 non-void tasks.
   */
  readonly meanDifference: number | null;
  readonly ci95: Interval | null;
  /**
   * Why `ci95` is a single point, when it is: every valid task has the same difference, so the
   * tasks show no variance — which is not certainty. Null otherwise.
   */
  readonly intervalNote: string | null;
  /** The minimum detectable difference at 80 % power and α = 0.05, and whether the observed gap is inside it. */
  readonly power: ComparisonPower;
  /** Why each agent's runs were not solved, by failure class, and the classes where the two differ (every class either has). */
  readonly failures: { readonly a: FailureTally; readonly b: FailureTally; readonly differences: readonly FailureDifference[] };
  /** `On <suite>, with <N> attempts per task and a frozen oracle, A won …, B won …, … tied, … void.` */
  readonly sentence: string;
  /** Sorted by task. */
  readonly perTask: readonly PairedTask[];
}

/** A comparison, or why it was refused (a user error: unknown agent, incomparable runs). */
export type ComparePairedResult =
  | { readonly ok: true; readonly comparison: PairedComparison }
  | { readonly ok: false; readonly reason: string };

/**
 * Compare agents A and B task by task (notes/statistics.md, "Paired comparison"): A wins a task
 * when its share solved there is higher than B's, B wins when lower, a tie when equal, void when
 * either side is void there (see {@link scoreTasks}: under a replay rule, replay drift voids a
 * task). Refused when an id is unknown, when A and B are the same agent, or when their runs
 * differ in suite, suite hash, controls digest, level, runtime or seeds (DESIGN.md §6). Pure.
 */
export function comparePaired(runs: readonly RunRecord[], options: ComparePairedOptions): ComparePairedResult {
  const { a, b } = options;
  const known = [...new Set(runs.map((run) => run.agent.id))].sort(compareText);
  const unknown = [a, b].filter((id) => !known.includes(id));
  if (unknown.length > 0) {
    const which = unknown.map((id) => JSON.stringify(id)).join(' and ');
    return { ok: false, reason: `unknown agent ${which}; known agents: ${known.join(', ') || '(none)'}` };
  }
  if (a === b) return { ok: false, reason: `cannot compare ${a} with itself; known agents: ${known.join(', ')}` };
  const aRuns = runs.filter((run) => run.agent.id === a);
  const bRuns = runs.filter((run) => run.agent.id === b);
  const problems = incomparable(aRuns, bRuns);
  if (problems.length > 0) {
    return { ok: false, reason: `refusing to compare ${a} and ${b}: their runs differ in ${problems.join('; ')}` };
  }
  return { ok: true, comparison: compare(aRuns, bRuns, options) };
}

/** What makes two agents' runs incomparable: detectMixed over both, plus their seeds. */
function incomparable(aRuns: readonly RunRecord[], bRuns: readonly RunRecord[]): string[] {
  const problems = detectMixed([...aRuns, ...bRuns]).map((m) => `${m.field} (${m.values.join(' vs ')})`);
  const seeds = (runs: readonly RunRecord[]): string =>
    [...new Set(runs.map((run) => (run.seed === null ? '(none)' : String(run.seed))))].sort(compareText).join(', ');
  const [aSeeds, bSeeds] = [seeds(aRuns), seeds(bRuns)];
  if (aSeeds !== bSeeds) problems.push(`seed (${aRuns[0]?.agent.id}: ${aSeeds} vs ${bRuns[0]?.agent.id}: ${bSeeds})`);
  return problems;
}

function compare(aRuns: readonly RunRecord[], bRuns: readonly RunRecord[], options: ComparePairedOptions): PairedComparison {
  const { replayRule, voidLimit } = readReportControls(options.controls);
  const [aScored, bScored] = [scoredRuns(aRuns, options.controls), scoredRuns(bRuns, options.controls)];
  const aScores = byTask(scoreTasks(aScored, replayRule));
  const bScores = byTask(scoreTasks(bScored, replayRule));
  const anatomy = classifyRuns([...aScored, ...bScored], options.evidence);
  const classesOn = (runs: readonly RunRecord[], task: string): FailureClass[] =>
    [...new Set(runs.filter((r) => r.task === task).flatMap((r) => anatomy.runs[r.id]?.class ?? []))];
  const tasks = [...new Set([...aScores.keys(), ...bScores.keys()])].sort(compareText);
  const perTask = tasks.map((task) => ({ ...pairTask(task, aScores.get(task), bScores.get(task)), aFailures: classesOn(aScored, task), bFailures: classesOn(bScored, task) }));
  const tallyOf = (runs: readonly RunRecord[]): FailureTally => tallyFailures(runs.flatMap((r) => anatomy.runs[r.id] ?? []));
  const [aTally, bTally] = [tallyOf(aScored), tallyOf(bScored)];
  const count = (result: PairedResult): number => perTask.filter((t) => t.result === result).length;
  const counts = { aWins: count('a-wins'), bWins: count('b-wins'), ties: count('tie'), void: count('void') };
  const valid = tasks.flatMap((task) => {
    const [sa, sb] = [aScores.get(task), bScores.get(task)];
    return sa?.kind === 'scored' && sb?.kind === 'scored' ? [[sa.scores, sb.scores] as const] : [];
  });
  const difference =
    valid.length >= 2 ? pairedDifference(valid.map(([sa]) => sa), valid.map(([, sb]) => sb)) : null;
  const power = comparisonPower({ a: options.a, b: options.b, scores: valid, aWins: counts.aWins, bWins: counts.bWins, meanDifference: difference?.mean ?? null, replayRule: replayRule !== null });
  const runCounts = [...aScores.values(), ...bScores.values()].map((score) => score.runs);
  const attemptsPerTask = { min: Math.min(...runCounts), max: Math.max(...runCounts) };
  const first = aRuns[0]!;
  return {
    a: options.a,
    b: options.b,
    suite: { id: first.suiteId, hash: first.suiteHash },
    controlsDigest: first.controlsDigest,
    replayRule,
    voidLimit,
    attemptsPerTask,
    tasks: tasks.length,
    ...counts,
    overVoidLimit: voidLimit !== null && counts.void > voidLimit,
    pValue: exactMcNemar(counts.aWins, counts.bWins),
    meanDifference: difference?.mean ?? null,
    ci95: difference?.ci95 ?? null,
    failures: { a: aTally, b: bTally, differences: compareFailures(aTally, bTally) },
    intervalNote: difference && difference.se === 0 ? pointIntervalNote(valid.length, difference.mean) : null,
    power,
    sentence: formatPairedSentence({ suiteId: first.suiteId, attemptsPerTask, a: options.a, b: options.b, ...counts }),
    perTask,
  };
}

function pointIntervalNote(tasks: number, difference: number): string {
  const d = `${difference >= 0 ? '+' : '−'}${Math.abs(difference).toFixed(3)}`;
  return `the 95 % interval is a single point because all ${tasks} tasks have the same difference (${d}): ${tasks} tasks that came out the same way show no variance to estimate from, which is not certainty`;
}

function byTask(scores: readonly TaskScore[]): Map<string, TaskScore> {
  return new Map(scores.map((score) => [score.task, score]));
}

function pairTask(task: string, a: TaskScore | undefined, b: TaskScore | undefined): Omit<PairedTask, 'aFailures' | 'bFailures'> {
  const share = (s: TaskScore | undefined): number | null => (s?.kind === 'scored' ? s.share : null);
  const why = (s: TaskScore | undefined): VoidReason | 'no-runs' | null =>
    s === undefined ? 'no-runs' : s.kind === 'void' ? s.reason : null;
  const [aShare, bShare] = [share(a), share(b)];
  const result: PairedResult =
    aShare === null || bShare === null ? 'void' : aShare > bShare ? 'a-wins' : aShare < bShare ? 'b-wins' : 'tie';
  return { task, result, aShare, bShare, aVoid: why(a), bVoid: why(b) };
}
