import type { RunRecord } from '../../../types.js';
import { plural } from '../../render/plural.js';

/**
 * Where and how many at once the runs were made, in one or two sentences: how many machines
 * (a fleet's runs: the distinct `bakeoff worker`s that made them, from the attempts the
 * coordinator recorded; a local bake's: one machine at a time) and the most runs that ran at
 * once, overall and on one worker. The bake's `--concurrency` is not recorded, so "at once" is
 * measured from the runs' recorded start and end times; a run holds one agent session at a time,
 * so it is also the most sessions at once. Pure.
 *
 * @param workers run id → the fleet worker whose attempt was recorded; a run not in it was made
 *   by a local bake.
 */
export function describeWhereRunsRan(runs: readonly RunRecord[], workers: ReadonlyMap<string, string>): string {
  if (runs.length === 0) return 'No runs were recorded.';
  const byWorker = new Map<string, RunRecord[]>();
  for (const r of runs) {
    const w = workers.get(r.id);
    if (w !== undefined) (byWorker.get(w) ?? byWorker.set(w, []).get(w)!).push(r);
  }
  const fleetRuns = [...byWorker.values()].reduce((n, rs) => n + rs.length, 0);
  const local = runs.length - fleetRuns;
  const names = [...byWorker.keys()].sort();
  const fleet = `a fleet (bakeoff run --queue) on ${plural(names.length, 'machine')}, counted as the distinct workers that made them (${names.join(', ')})`;
  const where =
    fleetRuns === 0
      ? `All ${plural(runs.length, 'run')} were made by bakeoff run without a fleet, on one machine at a time.`
      : local === 0
        ? `The runs were made by ${fleet}.`
        : `${fleetRuns} of ${plural(runs.length, 'run')} were made by ${fleet}; the other ${local} by bakeoff run without a fleet, on one machine at a time.`;
  const perWorker = Math.max(0, ...[...byWorker.values()].map(peakOverlap));
  const once =
    `At most ${plural(peakOverlap(runs), 'run')} ran at once` +
    (fleetRuns > 0 ? `, at most ${perWorker} on one worker` : '') +
    ` (one agent session each at a time; from the runs' recorded start and end times${fleetRuns > 0 ? ', each by its own machine\'s clock' : ''}: the concurrency a bake was started with is not recorded).`;
  return `${where} ${once}`;
}

/** The most runs whose [startedAt, finishedAt] intervals overlap at one instant. */
export function peakOverlap(runs: readonly RunRecord[]): number {
  const events = runs.flatMap((r) => [
    { t: Date.parse(r.startedAt), d: 1 },
    { t: Date.parse(r.finishedAt), d: -1 },
  ]);
  events.sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let peak = 0;
  for (const e of events) peak = Math.max(peak, (now += e.d));
  return peak;
}
