import type { RunRecord } from '../types.js';
import { compareAgents } from './compare-agents.js';
import { compareText } from './compare-text.js';
import { detectMixed } from './detect-mixed.js';
import type { AgentSummary, LeaderboardView, SummarizeOptions, TaskRow } from './leaderboard-view.js';
import { summarizeAgent } from './summarize-agent.js';

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
 * that solved.
 */
export function summarize(runs: readonly RunRecord[], options: SummarizeOptions): LeaderboardView {
  const taskIds = [...new Set(runs.map((run) => run.task))].sort(compareText);
  const runsByAgent = new Map<string, RunRecord[]>();
  for (const run of runs) {
    const agentRuns = runsByAgent.get(run.agent.id) ?? [];
    agentRuns.push(run);
    runsByAgent.set(run.agent.id, agentRuns);
  }
  const agents: AgentSummary[] = [...runsByAgent.values()]
    .map((agentRuns) =>
      summarizeAgent({
        runs: agentRuns,
        tasks: taskIds,
        standardRunsPerTask: options.standardRunsPerTask,
      }),
    )
    .sort(compareAgents)
    .map((summary, index) => ({ rank: index + 1, ...summary }));
  const first = runs[0];
  return {
    suite: first === undefined ? null : { id: first.suiteId, hash: first.suiteHash },
    controlsDigest: first?.controlsDigest ?? null,
    controls: options.controls,
    standardRunsPerTask: options.standardRunsPerTask,
    agents,
    tasks: taskIds.map((task) => taskRow(task, agents, runs)),
    mixed: detectMixed(runs),
    sandboxes: [...new Set(runs.map((run) => run.runtime.sandbox ?? 'unknown'))].sort(),
    unsafeRuns: runs.filter((run) => run.runtime.sandbox === UNSAFE_SANDBOX).length,
  };
}

function sumOrderPoints(runs: readonly RunRecord[]): { points: number; maxPoints: number }[] {
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

function taskRow(task: string, agents: readonly AgentSummary[], runs: readonly RunRecord[]): TaskRow {
  const taskRuns = runs.filter((run) => run.task === task);
  return {
    task,
    cells: agents.map(({ agent }) => {
      const cellRuns = taskRuns.filter((run) => run.agent.id === agent.id);
      const count = (kind: string): number => cellRuns.filter((run) => run.outcome.kind === kind).length;
      return {
        agentId: agent.id,
        runs: cellRuns.length,
        solved: count('solved'),
        failed: count('failed'),
        void: count('void'),
        orderPoints: sumOrderPoints(cellRuns.filter((run) => run.outcome.kind !== 'void')),
      };
    }),
  };
}
