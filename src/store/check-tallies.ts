import type Database from 'better-sqlite3';

/** Passed, total and errored (status `error` or `missing`) of one set of a run's checks. */
export interface CheckCount {
  readonly passed: number;
  readonly total: number;
  readonly errored: number;
}

/** One run's graded checks counted per set, and the pass-to-pass tests it did not pass (a few, by id). */
export interface CheckTally {
  readonly failToPass: CheckCount;
  /** `broken`: ids of pass-to-pass tests that did not pass, sorted, at most the number asked for. */
  readonly passToPass: CheckCount & { readonly broken: readonly string[] };
  readonly generated: CheckCount;
}

/** How many broken pass-to-pass ids a run's stored tally keeps (the most `checkTallies` can be asked for). */
export const BROKEN_KEPT = 20;

const count = (set: string, more = '') =>
  `json_object('passed', sum(expected = '${set}' AND status = 'pass'), 'total', sum(expected = '${set}'), ` +
  `'errored', sum(expected = '${set}' AND status IN ('error', 'missing'))${more})`;

/**
 * The SQL expression of a run's tally (`runs.tests_json`), from its rows in `checks`; NULL for a
 * run without any. Written once per run when it is stored, and by migration 16 for runs stored
 * before: a report reads one short text per failed run instead of every check of every run.
 */
export const TALLY_OF_RUN = `(SELECT json_object(
    'failToPass', ${count('fail-to-pass')},
    'passToPass', ${count('pass-to-pass', `, 'broken', json((
      SELECT json_group_array(check_id) FROM (SELECT check_id FROM checks b WHERE b.run_id = runs.id
        AND b.expected = 'pass-to-pass' AND b.status != 'pass' ORDER BY b.check_id LIMIT ${BROKEN_KEPT})))`)},
    'generated', ${count('generated')})
  FROM checks c WHERE c.run_id = runs.id HAVING count(*) > 0)`;

/**
 * The checks of every failed run, counted when the run was stored (a run of a big suite can have
 * hundreds of pass-to-pass tests: they are counted, never all read), with up to `brokenShown`
 * broken pass-to-pass ids per run. What the report's failure anatomy reads. Keyed by run id;
 * failed runs without checks are absent.
 */
export function readCheckTallies(db: Database.Database, brokenShown: number): Map<string, CheckTally> {
  if (brokenShown > BROKEN_KEPT) throw new RangeError(`checkTallies: at most ${BROKEN_KEPT} broken ids are kept per run, asked for ${brokenShown}`);
  const out = new Map<string, CheckTally>();
  // runs that failed alike have equal texts: each distinct one is parsed once and its tally shared (never changed after)
  const parsed = new Map<string, CheckTally>();
  const rows = db.prepare("SELECT id, tests_json FROM runs WHERE outcome = 'failed' AND tests_json IS NOT NULL").raw().all() as [string, string][];
  for (const [id, text] of rows) {
    let tally = parsed.get(text);
    if (tally === undefined) {
      const read = JSON.parse(text) as CheckTally;
      const broken = read.passToPass.broken;
      tally = broken.length > brokenShown ? { ...read, passToPass: { ...read.passToPass, broken: broken.slice(0, brokenShown) } } : read;
      parsed.set(text, tally);
    }
    out.set(id, tally);
  }
  return out;
}
