import { meteringNotes } from './metering-notes.js';
import { budgetUse, scoredRuns } from './budget-use.js';
import { quotaUse } from './quota-use.js';
import type { LeaderboardRun } from '../../types.js';
import { compareAgents, rankSorted } from './compare-agents.js';
import { compareText } from '../common/compare-text.js';
import { detectMixed } from './detect-mixed.js';
import type { AgentSummary, LeaderboardView, Ranking, SummarizeOptions, TaskRow } from './leaderboard-view.js';
import { readReportControls } from './read-report-controls.js';
import { scoreTasks } from './score-tasks.js';
import { summarizeAgent } from './summarize-agent.js';
import { classifyRuns, tallyFailures, type FailureAnatomy } from './failure-anatomy.js';
import type { RunFailure } from './classify-failure.js';

/** `runtime.sandbox` of runs made with `--unsafe-no-sandbox`. */
export const UNSAFE_SANDBOX = 'unsafe-no-sandbox';

/**
 * Build the leaderboard from finished runs: one line per agent (keyed by `agent.id`) in rank
 * order, the task × agent matrix, and the list of reasons the runs are not comparable. Pure; for
 * comparable runs (`mixed` empty) the same runs in any order give the same view. Suite, controls
 * digest and each agent's identity are read from the first run that has them.
 *
 * Counting rules (DESIGN.md §1): the share solved excludes void runs (the instrument broke, not
 * the agent); cost per fix divides the cost of all runs, void and failed included, by the runs
 * that solved. When the controls carry a replay rule the runs of a task are its replays: a task
 * whose replays disagree (or one of which is void) is void for that agent, and the share is
 * over tasks (see {@link scoreTasks}). When the controls carry a void limit and some agent has
 * more void tasks, the ranking is refused: ranks are null and agents are sorted by id.
 */
export function summarize(runs: readonly LeaderboardRun[], options: SummarizeOptions): LeaderboardView {
  const taskIds = [...new Set([...(options.tasks ?? []), ...runs.map((run) => run.task)])].sort(compareText);
  // under agentBudget.stopOnError a stopped pass's runs count as void pass-stopped (its total unscored)
  const scored = scoredRuns(runs, options.controls);
  const runsByAgent = new Map<string, LeaderboardRun[]>();
  for (const run of scored) {
    const agentRuns = runsByAgent.get(run.agent.id) ?? [];
    agentRuns.push(run);
    runsByAgent.set(run.agent.id, agentRuns);
  }
  const { replayRule, voidLimit, network } = readReportControls(options.controls);
  const failureAnatomy = classifyRuns(scored, options.evidence);
  const summaries = [...runsByAgent.values()]
    .map((agentRuns) =>
      summarizeAgent({
        runs: agentRuns,
        tasks: taskIds,
        standardRunsPerTask: options.standardRunsPerTask,
        taskScores: scoreTasks(agentRuns, replayRule),
        replayRule,
        failures: tallyFailures(failuresOf(agentRuns, failureAnatomy)),
      }),
    )
    .sort(compareAgents);
  const ranking = checkVoidLimit(summaries, voidLimit);
  const agents: AgentSummary[] = ranking.refused
    ? summaries
        .sort((a, b) => compareText(a.agent.id, b.agent.id))
        .map((summary) => ({ rank: null, tied: false, ...summary }))
    : rankSorted(summaries);
  const first = runs[0];
  const runsByTask = groupBy(scored, (run) => run.task);
  return {
    suite: first === undefined ? null : { id: first.suiteId, hash: first.suiteHash },
    controlsDigest: first?.controlsDigest ?? null,
    controls: options.controls,
    standardRunsPerTask: options.standardRunsPerTask,
    replayRule,
    voidLimit,
    network,
    ranking,
    agents,
    tasks: taskIds.map((task) => taskRow(task, agents, runsByTask.get(task) ?? [])),
    mixed: detectMixed(runs),
    sandboxes: [...new Set(runs.map((run) => run.runtime.sandbox ?? 'unknown'))].sort(),
    unsafeRuns: runs.filter((run) => run.runtime.sandbox === UNSAFE_SANDBOX).length,
    metering: meteringNotes(runs),
    budget: budgetUse(runs, options.controls),
    quota: quotaUse(options.quotaReadings ?? []),
    failureAnatomy,
  };
}

/** Refuse to rank when any agent has more void tasks than the limit (DESIGN.md §1 item 2). */
function checkVoidLimit(agents: readonly Omit<AgentSummary, 'rank' | 'tied'>[], voidLimit: number | null): Ranking {
  if (voidLimit === null) return { refused: false };
  const over = agents.filter((a) => a.voidTasks.length > voidLimit);
  if (over.length === 0) return { refused: false };
  const who = over.map((a) => {
    const reasons = Object.entries(a.voidTasksByReason).map(([reason, count]) => `${reason} ${count}`);
    return `${a.agent.id} has ${a.voidTasks.length} of ${a.tasks} tasks void (${reasons.join(', ')})`;
  });
  return {
    refused: true,
    reason: `more void tasks than the void limit of ${voidLimit}: ${who.join('; ')}. The instrument broke too often for a ranking to mean anything.`,
  };
}

function sumOrderPoints(runs: readonly LeaderboardRun[]): { points: number; maxPoints: number }[] {
  const sums: { points: number; maxPoints: number }[] = [];
  for (const run of runs) {
    for (const o of run.orders) {
      const slot = (sums[o.order - 1] ??= { points: 0, maxPoints: 0 });
      slot.points += o.points;
      slot.maxPoints += o.maxPoints;
    }
  }
  return Array.from(sums, (s) => s ?? { points: 0, maxPoints: 0 });
}

/** The failures of some runs (solved runs have none), in the runs' order. */
function failuresOf(runs: readonly LeaderboardRun[], anatomy: FailureAnatomy): RunFailure[] {
  const failures: RunFailure[] = [];
  for (const run of runs) {
    if (run.outcome.kind === 'solved') continue;
    const failure = anatomy.runs[run.id];
    if (failure) failures.push(failure);
  }
  return failures;
}

/** Runs grouped by a key, in their original order (one pass, not a filter per group). */
function groupBy(runs: readonly LeaderboardRun[], key: (run: LeaderboardRun) => string): Map<string, LeaderboardRun[]> {
  const groups = new Map<string, LeaderboardRun[]>();
  for (const run of runs) {
    const k = key(run);
    const group = groups.get(k);
    if (group) group.push(run);
    else groups.set(k, [run]);
  }
  return groups;
}

function taskRow(task: string, agents: readonly AgentSummary[], taskRuns: readonly LeaderboardRun[]): TaskRow {
  const byAgent = groupBy(taskRuns, (run) => run.agent.id);
  return {
    task,
    cells: agents.map(({ agent }) => {
      const cellRuns = byAgent.get(agent.id) ?? [];
      const valid = cellRuns.filter((run) => run.outcome.kind !== 'void');
      const solved = valid.filter((run) => run.outcome.kind === 'solved').length;
      return {
        agentId: agent.id,
        runs: cellRuns.length,
        solved,
        failed: valid.length - solved,
        void: cellRuns.length - valid.length,
        orderPoints: sumOrderPoints(valid),
      };
    }),
  };
}
