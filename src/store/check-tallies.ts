import type Database from 'better-sqlite3';

/** The `checks` table's sets and statuses (as `CheckRow` has them). */
type CheckSet = 'fail-to-pass' | 'pass-to-pass' | 'generated';
type CheckStatus = 'pass' | 'fail' | 'skip' | 'error' | 'missing';

/** One run's graded checks counted by set and status, and the pass-to-pass tests it did not pass (a few, by id). */
export interface CheckTally {
  /** `[expected, status, count]` for every (set, status) the run has. */
  readonly counts: readonly (readonly [CheckSet, CheckStatus, number])[];
  /** Ids of pass-to-pass tests that did not pass, sorted, at most `brokenShown`. */
  readonly brokenPassToPass: readonly string[];
}

/**
 * The checks of every failed run, counted in the database (a run of a big suite can have
 * hundreds of pass-to-pass tests: they are counted, never all read), with up to `brokenShown`
 * broken pass-to-pass ids per run. What the report's failure anatomy reads. Keyed by run id.
 */
export function readCheckTallies(db: Database.Database, brokenShown: number): Map<string, CheckTally> {
  const out = new Map<string, { counts: [CheckSet, CheckStatus, number][]; brokenPassToPass: string[] }>();
  const entry = (runId: string) => out.get(runId) ?? out.set(runId, { counts: [], brokenPassToPass: [] }).get(runId)!;
  // CROSS JOIN keeps runs the outer loop: each failed run's checks are looked up by the primary
  // key, where the planner's own choice walks every check of every run (100k runs: 0.6 s, not 4 s)
  const counts = db.prepare(
    `SELECT c.run_id AS runId, c.expected, c.status, count(*) AS n FROM runs r CROSS JOIN checks c ON c.run_id = r.id
     WHERE r.outcome = 'failed' GROUP BY c.run_id, c.expected, c.status`,
  ).all() as { runId: string; expected: CheckSet; status: CheckStatus; n: number }[];
  for (const c of counts) entry(c.runId).counts.push([c.expected, c.status, c.n]);
  const broken = db.prepare(
    `SELECT runId, id FROM (
       SELECT c.run_id AS runId, c.check_id AS id, row_number() OVER (PARTITION BY c.run_id ORDER BY c.check_id) AS k
       FROM runs r CROSS JOIN checks c ON c.run_id = r.id
       WHERE r.outcome = 'failed' AND c.expected = 'pass-to-pass' AND c.status != 'pass')
     WHERE k <= ? ORDER BY runId, id`,
  ).all(brokenShown) as { runId: string; id: string }[];
  for (const b of broken) entry(b.runId).brokenPassToPass.push(b.id);
  return out;
}
