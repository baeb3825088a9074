import type Database from 'better-sqlite3';
import type { AgentInfo, EffortCatalogRef, LeaderboardRun, Outcome, RunRecord } from '../types.js';
import { runIdentity, sharedParse, sharedValues } from './shared-values.js';

/**
 * The columns a leaderboard reads of each run, in the order of the `runs_leaderboard` index
 * (migration 17): `started_at` and `id` first, so that the read in time order is a walk of that
 * index alone. A column added here must be added to the index too (a new migration), or the read
 * goes back to the runs' rows: `open-store.test.ts` checks the query plan.
 */
const LEADERBOARD_COLUMNS = [
  'started_at', 'id', 'suite_id', 'suite_hash', 'controls_digest', 'task', 'agent_json', 'replay', 'level',
  'outcome', 'reason', 'detail', 'agent_sec', 'cost_usd', 'tokens_in', 'tokens_out', 'lines_added', 'lines_removed', 'points', 'max_points',
  'orders_json', 'runtime_json', 'flags_json', 'effort_catalog_json', 'web_attempts',
] as const;

/** The statement of {@link readLeaderboardRuns}: its plan must be a scan of the covering index. */
export const LEADERBOARD_QUERY = `SELECT ${LEADERBOARD_COLUMNS.join(', ')} FROM runs ORDER BY started_at, id`;

type Row = [
  startedAt: string, id: string, suiteId: string, suiteHash: string, controlsDigest: string, task: string, agentJson: string,
  replay: number, level: number | null, kind: Outcome['kind'], reason: string | null, detail: string | null, agentSec: number,
  costUsd: number | null, tokensIn: number | null, tokensOut: number | null, linesAdded: number, linesRemoved: number,
  points: number, maxPoints: number, ordersJson: string, runtimeJson: string, flagsJson: string, effortCatalogJson: string | null,
  webAttempts: number | null,
];

/**
 * Every run as a leaderboard reads it, in the order `listRuns` gives (started_at, id): the
 * fields of {@link LeaderboardRun}, each equal to the same field of `listRuns`' record, with
 * the same shared values for equal texts. What a table or markdown report reads instead of
 * every run's whole row.
 */
export function readLeaderboardRuns(db: Database.Database): LeaderboardRun[] {
  const parse = sharedParse();
  const share = sharedValues();
  const runs: LeaderboardRun[] = [];
  for (const values of db.prepare(LEADERBOARD_QUERY).raw().iterate() as IterableIterator<Row>) {
    const [
      startedAt, id, suiteId, suiteHash, controlsDigest, task, agentJson, replay, level, kind, reason, detail, agentSec,
      costUsd, tokensIn, tokensOut, linesAdded, linesRemoved, points, maxPoints, ordersJson, runtimeJson, flagsJson, effortCatalogJson, webAttempts,
    ] = values;
    runs.push({
      id,
      ...runIdentity(share, parse, { suiteId, suiteHash, controlsDigest, task, agentJson }),
      replay,
      level,
      outcome: share.outcome(kind, reason, detail),
      agentSec,
      costUsd,
      tokensIn,
      tokensOut,
      linesAdded,
      linesRemoved,
      points,
      maxPoints,
      orders: parse<RunRecord['orders']>(ordersJson),
      runtime: parse<Record<string, string>>(runtimeJson),
      flags: parse<string[]>(flagsJson),
      effortCatalog: effortCatalogJson ? parse<EffortCatalogRef>(effortCatalogJson) : null,
      webAttempts,
      startedAt,
    });
  }
  return runs;
}
