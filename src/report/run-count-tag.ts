/**
 * The tag shown beside an agent that did not run the standard number of times on every task:
 * null when every count equals `standard`, else `3 runs/task`, `1 run/task` or `1–2 runs/task`
 * (en dash). An empty list means no tasks, which needs no tag.
 *
 * @param runsPerTask the agent's run count on each task of the view (0 for a task it missed)
 */
export function runCountTag(runsPerTask: readonly number[], standard: number): string | null {
  if (runsPerTask.every((count) => count === standard)) return null;
  const min = Math.min(...runsPerTask);
  const max = Math.max(...runsPerTask);
  if (min === max) return `${min} ${min === 1 ? 'run' : 'runs'}/task`;
  return `${min}–${max} runs/task`;
}
