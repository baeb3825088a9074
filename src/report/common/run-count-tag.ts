/**
 * The tag shown beside an agent that did not run the standard number of times on every task:
 * null when every count equals `standard`, else `3 runs/task`, `1 run/task` or `1–2 runs/task`
 * (en dash), over the tasks it ran; an agent that ran on some tasks only (a predictions file)
 * says so first: `10 of 18 tasks, 1 run/task`. An empty list means no tasks, which needs no tag.
 *
 * @param runsPerTask the agent's run count on each task of the view (0 for a task it missed)
 */
export function runCountTag(runsPerTask: readonly number[], standard: number): string | null {
  if (runsPerTask.every((count) => count === standard)) return null;
  const ran = runsPerTask.filter((count) => count > 0);
  const coverage = ran.length < runsPerTask.length ? `${ran.length} of ${runsPerTask.length} tasks` : null;
  if (ran.length === 0) return coverage;
  const min = Math.min(...ran);
  const max = Math.max(...ran);
  const counts = min === max ? (min === standard ? null : `${min} ${min === 1 ? 'run' : 'runs'}/task`) : `${min}–${max} runs/task`;
  return [coverage, counts].filter((part) => part !== null).join(', ');
}
