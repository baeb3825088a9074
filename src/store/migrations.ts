import { TALLY_OF_RUN } from './check-tallies.js';

/**
 * Numbered schema migrations; `PRAGMA user_version` holds the number applied. Append only:
 * never edit a migration that has shipped (nor what it interpolates: `TALLY_OF_RUN`).
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id              TEXT PRIMARY KEY,
    suite_id        TEXT NOT NULL,
    suite_hash      TEXT NOT NULL,
    controls_digest TEXT NOT NULL,
    task            TEXT NOT NULL,
    agent_id        TEXT NOT NULL,
    agent_json      TEXT NOT NULL,
    replay          INTEGER NOT NULL,
    seed            INTEGER,
    level           INTEGER,
    outcome         TEXT NOT NULL CHECK (outcome IN ('solved', 'failed', 'void')),
    reason          TEXT,
    detail          TEXT,
    agent_sec       REAL NOT NULL,
    grade_sec       REAL NOT NULL,
    cost_usd        REAL,
    tokens_in       INTEGER,
    tokens_out      INTEGER,
    lines_added     INTEGER NOT NULL,
    lines_removed   INTEGER NOT NULL,
    points          INTEGER NOT NULL,
    max_points      INTEGER NOT NULL,
    runtime_json    TEXT NOT NULL,
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL
  );
  CREATE INDEX runs_agent ON runs (agent_id);
  CREATE TABLE sessions (
    run_id      TEXT NOT NULL REFERENCES runs (id),
    ord         INTEGER NOT NULL,
    exit_code   INTEGER,
    timed_out   INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    tokens_in   INTEGER,
    tokens_out  INTEGER,
    cost_usd    REAL,
    error       TEXT,
    PRIMARY KEY (run_id, ord)
  );
  CREATE TABLE checks (
    run_id   TEXT NOT NULL REFERENCES runs (id),
    ord      INTEGER NOT NULL,
    check_id TEXT NOT NULL,
    expected TEXT NOT NULL CHECK (expected IN ('fail-to-pass', 'pass-to-pass')),
    status   TEXT NOT NULL CHECK (status IN ('pass', 'fail', 'skip', 'error', 'missing')),
    PRIMARY KEY (run_id, ord, check_id)
  );
  CREATE TABLE controls (
    digest TEXT PRIMARY KEY,
    json   TEXT NOT NULL
  );
  `,
  // 2: points per order; checks may be generated checks (work orders, calibration)
  `
  ALTER TABLE runs ADD COLUMN orders_json TEXT NOT NULL DEFAULT '[]';
  CREATE TABLE checks_v2 (
    run_id   TEXT NOT NULL REFERENCES runs (id),
    ord      INTEGER NOT NULL,
    check_id TEXT NOT NULL,
    expected TEXT NOT NULL CHECK (expected IN ('fail-to-pass', 'pass-to-pass', 'generated')),
    status   TEXT NOT NULL CHECK (status IN ('pass', 'fail', 'skip', 'error', 'missing')),
    PRIMARY KEY (run_id, ord, check_id)
  );
  INSERT INTO checks_v2 SELECT * FROM checks;
  DROP TABLE checks;
  ALTER TABLE checks_v2 RENAME TO checks;
  `,
  // 3: what \`bakeoff verify\` needs: the suite folder of each bake, and a checksum of every
  // artifact. Runs stored before this have artifacts_recorded = 0 (no checksums to compare).
  `
  CREATE TABLE bakes (
    suite_hash      TEXT NOT NULL,
    suite_dir       TEXT NOT NULL,
    suite_id        TEXT NOT NULL,
    controls_digest TEXT NOT NULL,
    first_at        TEXT NOT NULL,
    last_at         TEXT NOT NULL,
    PRIMARY KEY (suite_hash, suite_dir)
  );
  CREATE TABLE artifacts (
    run_id TEXT NOT NULL REFERENCES runs (id),
    path   TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    bytes  INTEGER NOT NULL,
    PRIMARY KEY (run_id, path)
  );
  ALTER TABLE runs ADD COLUMN artifacts_recorded INTEGER NOT NULL DEFAULT 0;
  `,
  // 4: model agents: metered tokens by class and flags per run; per session the metered usage
  // and what the harness itself reported; every model request the proxy relayed.
  `
  ALTER TABLE runs ADD COLUMN usage_json TEXT;
  ALTER TABLE runs ADD COLUMN flags_json TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE sessions ADD COLUMN usage_json TEXT;
  ALTER TABLE sessions ADD COLUMN harness_json TEXT;
  CREATE TABLE requests (
    run_id      TEXT NOT NULL REFERENCES runs (id),
    ord         INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    started_at  TEXT NOT NULL,
    format      TEXT,
    path        TEXT NOT NULL,
    model       TEXT,
    status      INTEGER,
    failure     TEXT,
    latency_ms  REAL NOT NULL,
    ttfb_ms     REAL,
    input       INTEGER,
    cache_read  INTEGER,
    cache_write INTEGER,
    output      INTEGER,
    reasoning   INTEGER,
    cost_usd    REAL,
    PRIMARY KEY (run_id, ord, seq)
  );
  `,
  // 5: per model request, the proxy's own words on what went wrong (a cut stream, a broken
  // connection, an error status), and the basis of its cost. cost_usd is from now on the
  // request's cost as bakeoff accounts it (the provider's charge, else the list price in force
  // when the request was made); before, it held the provider's charge only.
  `
  ALTER TABLE requests ADD COLUMN detail TEXT;
  ALTER TABLE requests ADD COLUMN cost_basis TEXT;
  `,
  // 6: the tasks a bake planned (the suite's admitted tasks), so a report knows what an agent
  // that ran on some of them only (a predictions file) did not cover.
  `
  ALTER TABLE bakes ADD COLUMN tasks_json TEXT;
  `,
  // 7: model agents: the catalog each run's effort level was resolved from (its source and
  // sha256, the level as written and as resolved); NULL for other agents and older runs.
  `
  ALTER TABLE runs ADD COLUMN effort_catalog_json TEXT;
  `,
  // 8: subscription runs: the quota headers of each model answer (Codex `x-codex-*`, Claude
  // `anthropic-ratelimit-unified-*`), NULL when none came.
  `
  ALTER TABLE requests ADD COLUMN quota_json TEXT;
  `,
  // 9: runs made by a fleet (`bakeoff run --queue`): every attempt at a run, which worker made
  // it, and whether it was recorded or abandoned (its worker was lost); local runs have none.
  `
  CREATE TABLE attempts (
    run_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    worker TEXT NOT NULL,
    started_at TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('recorded', 'abandoned')),
    cost_usd REAL,
    PRIMARY KEY (run_id, attempt)
  );
  `,
  // 10: an attempt's metered tokens and model requests beside its cost (an abandoned attempt's as
  // far as its worker reported them before it was lost); NULL without a meter.
  `
  ALTER TABLE attempts ADD COLUMN tokens_in INTEGER;
  ALTER TABLE attempts ADD COLUMN tokens_out INTEGER;
  ALTER TABLE attempts ADD COLUMN requests INTEGER;
  `,
  // 11: the first line of a failing test's message, as its runner reported it (shown on a run's
  // page beside the test; never graded on); NULL for passing tests and older runs.
  `
  ALTER TABLE checks ADD COLUMN message TEXT;
  `,
  // 12: git's plain line count of a run's change beside its lines to review (which now count
  // names, link targets, mode changes, every line terminator and the screen width); NULL for runs
  // recorded before.
  `
  ALTER TABLE runs ADD COLUMN plain_lines_added INTEGER;
  ALTER TABLE runs ADD COLUMN plain_lines_removed INTEGER;
  `,
  // 13: what the machine gave each sandboxed session and test run of a run: wall time, CPU time,
  // run-queue wait, time held back from a CPU, re-runs of starved test runs (decision 011).
  `
  ALTER TABLE runs ADD COLUMN steps_json TEXT NOT NULL DEFAULT '[]';
  `,
  // 14: the closed web (decision 013): what the proxy's tool policy withheld, refused or (open
  // web) let through in each request, and the signs in its answer that the provider ran a tool
  // (JSON arrays; NULL for requests stored before); each run's web attempts (NULL: no meter).
  `
  ALTER TABLE requests ADD COLUMN withheld_json TEXT;
  ALTER TABLE requests ADD COLUMN provider_tool_use_json TEXT;
  ALTER TABLE runs ADD COLUMN web_attempts INTEGER;
  `,
  // 15: reports read every run in time order (ORDER BY started_at, id): an index in that order
  // spares sorting 100,000 rows on every report; model-request quota readings are looked up by
  // the few requests that carry them.
  `
  CREATE INDEX runs_started ON runs (started_at, id);
  CREATE INDEX requests_quota ON requests (started_at) WHERE quota_json IS NOT NULL;
  `,
  // 16: each run's checks counted per set, with its first broken pass-to-pass ids (check-tallies.ts),
  // kept with the run when it is stored: the failure anatomy of a report reads one short text per
  // failed run, not every check of every run (100k runs: 1.2 s before). NULL: the run has no checks.
  `
  ALTER TABLE runs ADD COLUMN tests_json TEXT;
  UPDATE runs SET tests_json = ${TALLY_OF_RUN};
  `,
  // 17: a table or markdown report reads of every run only the columns its leaderboard is built
  // from (leaderboard-runs.ts), in time order: an index holding exactly those, started_at and id
  // first, answers that read without touching the runs' rows (each run's usage, steps and the
  // rest stay there; 100k runs: the read took twice as long from the table); and the failed runs'
  // check tallies, which the failure anatomy reads, from an index of their own. Indexes only:
  // no row changes, so a crash mid-migration (one transaction) leaves the folder as it was.
  `
  CREATE INDEX runs_leaderboard ON runs (started_at, id, suite_id, suite_hash, controls_digest, task, agent_json, replay, level,
    outcome, reason, detail, agent_sec, cost_usd, tokens_in, tokens_out, lines_added, lines_removed, points, max_points,
    orders_json, runtime_json, flags_json, effort_catalog_json, web_attempts);
  CREATE INDEX runs_failed_tests ON runs (id, tests_json) WHERE outcome = 'failed' AND tests_json IS NOT NULL;
  `,
];
