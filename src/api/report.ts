import path from 'node:path';
import { UserError } from '../errors.js';
import { comparePaired, type PairedComparison } from '../report/view/compare-paired.js';
import type { FailureEvidence } from '../report/view/failure-evidence.js';
import type { LeaderboardView } from '../report/view/leaderboard-view.js';
import { summarize } from '../report/view/summarize.js';
import { describeHolder } from '../store/describe-holder.js';
import { openStore, type AttemptRow, type Store } from '../store/open-store.js';
import { readHolder } from '../store/results-lock.js';
import type { LeaderboardRun, RunRecord } from '../types.js';
import { differingFields } from '../util/differing-fields.js';
import { openProbeCache } from '../util/probe-cache.js';
import { judgeProcess } from '../util/process-identity.js';
import { notifyVia, type NoteEvent } from './events.js';
import { readFailureEvidence } from './failure-evidence.js';
import { cacheDirOf, cwdOf, type Place } from './paths.js';

export interface ReportRequest extends Place {
  /** The results folder. */
  readonly results: string;
  /** Two agent ids: a paired comparison instead of the leaderboard. */
  readonly compare?: readonly [string, string];
  /**
   * Only the leaderboard's view is wanted (a table or markdown report): the store reads of each
   * run only what the view is built from, and the outcome's `runs` is empty. A comparison reads
   * every run whole either way.
   */
  readonly viewOnly?: boolean;
  readonly onEvent?: (event: NoteEvent) => void;
}

/** The leaderboard of a results folder, or the paired comparison of two of its agents, as data (render with `report/`'s renderers). */
export type ReportOutcome =
  /** `runs`: every run, or none when the request asked for the view only (`viewOnly`). */
  | { readonly kind: 'leaderboard'; readonly view: LeaderboardView; readonly runs: readonly RunRecord[]; readonly fleet?: FleetTally }
  /** `view` and `runs` are the two agents' only. */
  | { readonly kind: 'comparison'; readonly comparison: PairedComparison; readonly view: LeaderboardView; readonly runs: readonly RunRecord[] };

/** A bake run on a fleet (`run --queue`): the runs redone after a worker was lost, and the attempts that were lost. */
export interface FleetTally {
  /** Runs recorded from a later attempt after an earlier one's worker was lost. */
  readonly reExecuted: number;
  /** Attempts never recorded as runs (their worker was lost); they may have cost money. */
  readonly abandonedAttempts: number;
  /**
   * What the abandoned attempts of metered (model) agents spent, as their workers reported it up
   * to each one's last finished model request: paid for, never part of any run's figures. The
   * cost is null when one of them had a request without a price, or when none was metered.
   */
  readonly abandonedCostUsd: number | null;
  readonly abandonedTokensIn: number;
  readonly abandonedTokensOut: number;
  readonly abandonedRequests: number;
  /** Abandoned attempts of agents with no meter (`command:` and the like): their cost is unknown. */
  readonly abandonedUnmetered: number;
  /** The workers that made an attempt (recorded or abandoned). */
  readonly workers: readonly string[];
}

/**
 * `bakeoff report`: reads a results folder (no lock: SQLite shows whole runs only; a bake still
 * adding runs is noted). Refuses (UserError) an empty folder, runs that must not be ranked
 * together, and a comparison of unknown or incomparable agents.
 */
export async function report(request: ReportRequest): Promise<ReportOutcome> {
  const shown = request.results;
  const store = openStore(path.resolve(cwdOf(request), request.results), { create: false, intact: openProbeCache(cacheDirOf(request)) });
  try {
    const holder = readHolder(store.dir);
    if (holder && holder.command === 'run' && judgeProcess(holder) === 'alive') {
      notifyVia(request.onEvent).note(`a bake is still running in ${shown} (${describeHolder(holder)}): this report shows the runs finished so far`);
    }
    if (request.viewOnly === true && !request.compare) {
      const view = await checkedLeaderboard(shown, store, store.listLeaderboardRuns());
      return leaderboardOutcome(store, view, []);
    }
    const runs = store.listRuns();
    if (request.compare) {
      if (runs.length === 0) throw new UserError(`${shown}: no finished runs yet`);
      return await comparison(shown, store, runs, request.compare);
    }
    return leaderboardOutcome(store, await checkedLeaderboard(shown, store, runs), runs);
  } finally {
    store.close();
  }
}

/** The leaderboard of a folder's runs; refused (UserError) without any, or with runs that must not be ranked together. */
async function checkedLeaderboard(shown: string, store: Store, runs: readonly LeaderboardRun[]): Promise<LeaderboardView> {
  if (runs.length === 0) throw new UserError(`${shown}: no finished runs yet`);
  const view = await leaderboard(store, runs);
  if (view.mixed.length > 0) {
    const what = view.mixed.map((m) => `${m.field} (${m.values.join(' vs ')})`).join('; ');
    throw new UserError(`${shown}: refusing to rank runs that differ in ${what}${controlsDifference(store, runs)}; report each suite or control set from its own results folder`);
  }
  return view;
}

function leaderboardOutcome(store: Store, view: LeaderboardView, runs: readonly RunRecord[]): ReportOutcome {
  const fleet = fleetTally(store);
  return { kind: 'leaderboard', view, runs, ...(fleet ? { fleet } : {}) };
}

/** The leaderboard of `runs` under the folder's controls and the tasks its bake planned, failures classed with the evidence the folder holds. */
export async function leaderboard(store: Store, runs: readonly LeaderboardRun[], given?: ReadonlyMap<string, FailureEvidence>): Promise<LeaderboardView> {
  const evidence = given ?? (await readFailureEvidence(store, runs));
  const controls = [...store.controls().values()];
  const planned = runs[0] ? (store.bakes().find((b) => b.suiteHash === runs[0]!.suiteHash)?.tasks ?? undefined) : undefined;
  const quotaReadings = store.quotaReadings();
  return summarize(runs, {
    standardRunsPerTask: standardRuns(controls[0]),
    controls: controls.length === 1 ? controls[0] : controls,
    ...(planned ? { tasks: planned } : {}),
    ...(quotaReadings.length > 0 ? { quotaReadings } : {}),
    evidence,
  });
}

async function comparison(shown: string, store: Store, runs: readonly RunRecord[], [a, b]: readonly [string, string]): Promise<ReportOutcome> {
  const digest = runs.find((run) => run.agent.id === a)?.controlsDigest;
  const controls = digest === undefined ? undefined : store.controls().get(digest);
  const pairRuns = runs.filter((run) => run.agent.id === a || run.agent.id === b);
  const evidence = await readFailureEvidence(store, pairRuns);
  const result = comparePaired(runs, { a, b, controls, evidence });
  if (!result.ok) throw new UserError(`${shown}: --compare: ${result.reason}${controlsDifference(store, pairRuns)}`);
  const view = summarize(pairRuns, { standardRunsPerTask: standardRuns(controls), controls, evidence });
  return { kind: 'comparison', comparison: result.comparison, view, runs: pairRuns };
}

/**
 * What the runs' control sets disagree on, field by field, as stored with the results (`; the
 * controls differ in network ("none" vs "model-api+web")`), or '' when they share one set.
 */
function controlsDifference(store: Store, runs: readonly LeaderboardRun[]): string {
  const digests = [...new Set(runs.map((run) => run.controlsDigest))];
  if (digests.length < 2) return '';
  const stored = store.controls();
  const changed = [...new Set(digests.slice(1).flatMap((d) => differingFields(stored.get(digests[0]!), stored.get(d))))];
  if (changed.length === 0) return '';
  const web = changed.some((c) => c.startsWith('network ')) ? ' — closed-web and open-web runs are never ranked or compared together' : '';
  return `; the controls differ in ${changed.join(', ')}${web}`;
}

function standardRuns(controls: unknown): number {
  return (controls as { runsPerTask?: number } | undefined)?.runsPerTask ?? 2;
}

function fleetTally(store: Store): FleetTally | undefined {
  const attempts = store.attempts();
  return attempts.length === 0 ? undefined : tallyAttempts(attempts);
}

/** What a fleet's attempts add up to: runs redone, attempts lost and what they spent, the workers. */
export function tallyAttempts(attempts: readonly AttemptRow[]): FleetTally {
  const abandoned = attempts.filter((a) => a.state === 'abandoned');
  const recorded = attempts.filter((a) => a.state === 'recorded');
  const lostRuns = new Set(abandoned.map((a) => a.runId));
  const metered = abandoned.filter((a) => a.requests !== null);
  const sum = (values: readonly number[]) => values.reduce((x, y) => x + y, 0);
  return {
    reExecuted: recorded.filter((a) => lostRuns.has(a.runId)).length,
    abandonedAttempts: abandoned.length,
    abandonedCostUsd: metered.length > 0 && metered.every((a) => a.costUsd !== null) ? sum(metered.map((a) => a.costUsd!)) : null,
    abandonedTokensIn: sum(metered.map((a) => a.tokensIn ?? 0)),
    abandonedTokensOut: sum(metered.map((a) => a.tokensOut ?? 0)),
    abandonedRequests: sum(metered.map((a) => a.requests ?? 0)),
    abandonedUnmetered: abandoned.length - metered.length,
    workers: [...new Set(attempts.map((a) => a.worker))].sort(),
  };
}

/**
 * The fleet's line under a leaderboard: what worker loss cost the bake, e.g. `fleet: 3
 * worker(s); 1 run(s) re-executed after worker loss; 1 abandoned attempt(s) (never recorded as
 * runs; paid for: $0.0120, 2400 tokens in, 60 out over 2 model request(s), metered up to each
 * one's last finished request)`.
 */
export function fleetLine(fleet: FleetTally): string {
  const metered = fleet.abandonedAttempts - fleet.abandonedUnmetered;
  const spent = [
    ...(metered > 0
      ? [
          `paid for: ${fleet.abandonedCostUsd === null ? 'cost unknown (a request without a list price)' : `$${fleet.abandonedCostUsd.toFixed(4)}`}, ` +
            `${fleet.abandonedTokensIn} tokens in, ${fleet.abandonedTokensOut} out over ${fleet.abandonedRequests} model request(s), metered up to each one's last finished request`,
        ]
      : []),
    ...(fleet.abandonedUnmetered > 0 ? [`${fleet.abandonedUnmetered === fleet.abandonedAttempts ? '' : `${fleet.abandonedUnmetered} of them `}cost unknown (no model meter)`] : []),
  ];
  const lost = fleet.abandonedAttempts === 0 ? '' : ` (never recorded as runs; ${spent.join('; ')})`;
  return `fleet: ${fleet.workers.length} worker(s); ${fleet.reExecuted} run(s) re-executed after worker loss; ${fleet.abandonedAttempts} abandoned attempt(s)${lost}`;
}
