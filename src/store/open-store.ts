import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { isDamage, StoppingError, UserError } from '../errors.js';
import { holdLastStep, isStopping } from '../util/index.js';
import type { AgentInfo, EffortCatalogRef, LeaderboardRun, Outcome, RunRecord, StepRecord, TokenUsage, ToolPolicyItem } from '../types.js';
import { digestArtifacts, type ArtifactDigest } from './artifact-digests.js';
import { damagedDatabase, knownIntact, refuseLostDatabase, rememberIntact, requireIntact } from './check-store.js';
import type { ProbeCache } from '../util/index.js';
import { MIGRATIONS } from './migrations.js';
import { readCheckTallies, TALLY_OF_RUN, type CheckTally } from './check-tallies.js';
import { readLeaderboardRuns } from './leaderboard-runs.js';
import { runIdentity, sharedParse, sharedValues, type SharedValues } from './shared-values.js';
import { DATABASE_NAME, isRunTempName, resultsPaths, runDir, runTempDir } from './run-folder.js';

/*
 * A results folder, one per bake:
 *
 *   <out>/bakeoff.db        SQLite: runs, sessions, checks, controls, bakes (the suite folder
 *                           of each bake), artifacts (sha256 of every artifact file)
 *   <out>/runs/<run-id>/    artifacts: change patches, agent output, grader output, test reports
 *   <out>/runs/.tmp-*       a run being written; removed on open
 *
 * A run's artifacts are written to a temp folder, renamed into place, and then its rows are
 * inserted in one transaction, together with the checksum of every artifact file (hashed
 * before the rename). A run exists iff its row exists: a kill at any moment leaves either a
 * whole run or nothing (an orphaned artifacts folder is replaced when the run is redone).
 */

/**
 * What one agent session did, as agents report it and the store keeps it: the fields agents'
 * `SessionResult` and the store's `SessionRow` share (each derives its own from this one).
 */
export interface SessionRecord {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
  readonly costUsd: number | null;
  /** Set when the instrument broke (the agent could not be started, a harness error event). */
  readonly error: string | null;
  /** Metered usage of the session (model agents), else null. */
  readonly usage: TokenUsage | null;
  /** What the harness itself reported (tokens, cost, turns, final message, errors), else null. */
  readonly harness: unknown;
  /** Every model request the proxy relayed during the session. */
  readonly requests: readonly RequestRow[];
  /** Things a reader of the run should know; not stored per session (the run keeps them, prefixed with the order). */
  readonly flags: readonly string[];
}

/** The fields of a session a store row always has; the rest are optional on a row. */
type SessionCore = 'exitCode' | 'timedOut' | 'durationMs' | 'tokensIn' | 'tokensOut' | 'costUsd' | 'error';

/** A stored session: its order and its record (usage, harness report, requests and flags may be absent). */
export interface SessionRow extends Pick<SessionRecord, SessionCore>, Partial<Omit<SessionRecord, SessionCore>> {
  readonly order: number;
}

/** One model request as the metering proxy recorded it. */
export interface RequestRow {
  readonly seq: number;
  readonly startedAt: string;
  readonly format: string | null;
  readonly path: string;
  readonly model: string | null;
  readonly status: number | null;
  readonly failure: string | null;
  /** When `failure` is set: what happened, in the proxy's words (e.g. `the … stream ended after 1843 bytes without message_stop`). */
  readonly detail: string | null;
  readonly latencyMs: number;
  readonly ttfbMs: number | null;
  readonly input: number | null;
  readonly cacheRead: number | null;
  readonly cacheWrite: number | null;
  readonly output: number | null;
  readonly reasoning: number | null;
  /** The request's cost: the provider's charge, else its tokens at the list price in force when it was made; null: unknown. */
  readonly costUsd: number | null;
  /** What `costUsd` rests on (`charged by the provider`, the list price used), or why it is null. */
  readonly costBasis: string | null;
  /** A subscription's quota headers on the answer, null when none came (or stored before they were). */
  readonly quota?: Readonly<Record<string, string>> | null;
  /** What the proxy's tool policy withheld, refused or (open web) let through in the request; null when stored before (decision 013). */
  readonly withheld?: readonly ToolPolicyItem[] | null;
  /** Signs in the answer that the provider ran a tool; null when stored before. */
  readonly providerToolUse?: readonly string[] | null;
}

export interface CheckRow {
  readonly order: number;
  readonly id: string;
  readonly expected: 'fail-to-pass' | 'pass-to-pass' | 'generated';
  readonly status: 'pass' | 'fail' | 'skip' | 'error' | 'missing';
  /** A test that did not pass: the first line of its message as the runner reported it (display only: the tests can write it). */
  readonly message?: string | null;
}

/** A suite folder a bake ran from (one row per suite hash and folder). */
export interface BakeRow {
  readonly suiteId: string;
  readonly suiteHash: string;
  /** Absolute path of the suite folder. */
  readonly suiteDir: string;
  readonly controlsDigest: string;
  /** The tasks the latest bake planned (the suite's admitted tasks); null for folders older than that. */
  readonly tasks: readonly string[] | null;
  /** ISO time of the first and the latest `bakeoff run` from this folder with this hash. */
  readonly firstAt: string;
  readonly lastAt: string;
}

/** Runs of one suite hash under one control set. */
/** One attempt at a fleet run: the one recorded, or one abandoned when its worker was lost. */
export interface AttemptRow {
  readonly runId: string;
  /** 1-based, in the order the attempts started. */
  readonly attempt: number;
  readonly worker: string;
  readonly startedAt: string;
  readonly state: 'recorded' | 'abandoned';
  /**
   * Metered model cost of the attempt: the recorded run's, or what an abandoned attempt's worker
   * reported up to its last finished model request; null when not known (no meter, no list price).
   */
  readonly costUsd: number | null;
  /** Metered input and output tokens and model requests, the same way; null without a meter (a `command:` agent). */
  readonly tokensIn: number | null;
  readonly tokensOut: number | null;
  readonly requests: number | null;
}

export interface RunSet {
  readonly suiteId: string;
  readonly suiteHash: string;
  readonly controlsDigest: string;
  readonly runs: number;
}

export interface Store {
  readonly dir: string;
  readonly runsDir: string;
  /**
   * Ids of every finished run, but those void `machine-starved` (decision 011): the machine, not
   * the agent, decided them, so a resumed bake runs them again and `saveRun` replaces them.
   */
  finishedRunIds(): Set<string>;
  /** A fresh temp folder for a run's artifacts. */
  artifactsTempDir(runId: string): string;
  /** Moves the artifacts into place and records the run (and a fleet run's attempts), atomically. */
  saveRun(run: RunRecord, sessions: readonly SessionRow[], checks: readonly CheckRow[], artifactsTmp: string, attempts?: readonly AttemptRow[]): void;
  /** Every attempt of the fleet runs (`bakeoff run --queue`), by run and attempt. */
  attempts(): AttemptRow[];
  saveControls(digest: string, controls: unknown): void;
  controls(): Map<string, unknown>;
  /** Records that a bake runs from this suite folder (once per hash and folder; `lastAt` moves). */
  saveBake(bake: Omit<BakeRow, 'firstAt' | 'lastAt' | 'tasks'> & { readonly tasks?: readonly string[] }): void;
  /** Every recorded bake, latest first. */
  bakes(): BakeRow[];
  /** The checksums recorded with a run, sorted by path; null when it was stored before bakeoff recorded them. */
  artifactDigests(runId: string): ArtifactDigest[] | null;
  listRuns(): RunRecord[];
  /**
   * Every run with only the fields a leaderboard is built from, in `listRuns`' order and with its
   * values: what a table or markdown report reads (from an index, not every run's whole row).
   */
  listLeaderboardRuns(): LeaderboardRun[];
  /** The suites and control sets the stored runs were made with, and how many runs of each. */
  runSets(): RunSet[];
  /** The sessions of a run, with their metered usage, harness report and model requests. */
  sessions(runId: string): SessionRow[];
  /** Every model answer that carried subscription quota headers: its run's agent, when, the headers; by time. */
  quotaReadings(): { readonly agent: string; readonly at: string; readonly quota: Record<string, string> }[];
  /** The graded tests and generated checks of a run, every order, sorted by order and id. */
  checks(runId: string): CheckRow[];
  /** Every failed run's checks counted per set, with up to `brokenShown` (at most `BROKEN_KEPT`) broken pass-to-pass ids (check-tallies.ts). */
  checkTallies(brokenShown: number): Map<string, CheckTally>;
  close(): void;
}

export interface OpenStoreOptions {
  /** Make the folder and its database when missing (a bake); else refuse a folder without one. */
  readonly create: boolean;
  /**
   * Where a database found intact is remembered (check-store.ts): opened again unchanged, it is
   * not walked again by quick_check. Absent: checked on every open.
   */
  readonly intact?: ProbeCache;
}

export function openStore(dir: string, options: OpenStoreOptions): Store {
  const dbPath = path.resolve(resultsPaths(dir).database);
  const runsDir = resultsPaths(dir).runsDir;
  if (options.create) mkdirSync(runsDir, { recursive: true });
  // the stamps before this process opens it: what a kept "intact" must match
  const before = knownIntact(dbPath, options.intact);
  let wrote = false;
  let db: Database.Database;
  try {
    db = new Database(dbPath, { fileMustExist: !options.create });
  } catch (error) {
    throw new UserError(`${dir}: not a results folder (no readable ${DATABASE_NAME}): ${(error as Error).message}`);
  }
  try {
    if (!before.known) {
      requireIntact(db, dbPath);
      rememberIntact(dbPath, options.intact, before.stamps);
    }
    if (schemaVersion(db, dbPath) === 0) refuseLostDatabase(dbPath, runsDir);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    wrote = migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  if (options.create) removeTempDirs(runsDir);

  // every INSERT names its columns: a value lands in the column of its name, never in whatever column sits at its place
  const insertRun = db.prepare(namedInsert('runs', {
    id: 'id', suite_id: 'suiteId', suite_hash: 'suiteHash', controls_digest: 'controlsDigest', task: 'task', agent_id: 'agentId',
    agent_json: 'agentJson', replay: 'replay', seed: 'seed', level: 'level', outcome: 'outcome', reason: 'reason', detail: 'detail',
    agent_sec: 'agentSec', grade_sec: 'gradeSec', cost_usd: 'costUsd', tokens_in: 'tokensIn', tokens_out: 'tokensOut',
    lines_added: 'linesAdded', lines_removed: 'linesRemoved', points: 'points', max_points: 'maxPoints', runtime_json: 'runtimeJson',
    started_at: 'startedAt', finished_at: 'finishedAt', orders_json: 'ordersJson', artifacts_recorded: 'artifactsRecorded',
    usage_json: 'usageJson', flags_json: 'flagsJson', effort_catalog_json: 'effortCatalogJson',
    plain_lines_added: 'plainLinesAdded', plain_lines_removed: 'plainLinesRemoved', steps_json: 'stepsJson', web_attempts: 'webAttempts',
  }));
  const insertSession = db.prepare(namedInsert('sessions', {
    run_id: 'runId', ord: 'order', exit_code: 'exitCode', timed_out: 'timedOut', duration_ms: 'durationMs', tokens_in: 'tokensIn',
    tokens_out: 'tokensOut', cost_usd: 'costUsd', error: 'error', usage_json: 'usageJson', harness_json: 'harnessJson',
  }));
  const insertRequest = db.prepare(namedInsert('requests', {
    run_id: 'runId', ord: 'order', seq: 'seq', started_at: 'startedAt', format: 'format', path: 'path', model: 'model', status: 'status',
    failure: 'failure', latency_ms: 'latencyMs', ttfb_ms: 'ttfbMs', input: 'input', cache_read: 'cacheRead', cache_write: 'cacheWrite',
    output: 'output', reasoning: 'reasoning', cost_usd: 'costUsd', detail: 'detail', cost_basis: 'costBasis', quota_json: 'quotaJson',
    withheld_json: 'withheldJson', provider_tool_use_json: 'providerToolUseJson',
  }));
  const insertCheck = db.prepare(namedInsert('checks', { run_id: 'runId', ord: 'order', check_id: 'id', expected: 'expected', status: 'status', message: 'message' }));
  const insertArtifact = db.prepare(namedInsert('artifacts', { run_id: 'runId', path: 'path', sha256: 'sha256', bytes: 'bytes' }));
  const insertAttempt = db.prepare(namedInsert('attempts', {
    run_id: 'runId', attempt: 'attempt', worker: 'worker', started_at: 'startedAt', state: 'state', cost_usd: 'costUsd',
    tokens_in: 'tokensIn', tokens_out: 'tokensOut', requests: 'requests',
  }));
  const countChecks = db.prepare(`UPDATE runs SET tests_json = ${TALLY_OF_RUN} WHERE id = ?`);
  // a run redone after it was void machine-starved replaces that record whole
  const starved = db.prepare("SELECT 1 FROM runs WHERE id = ? AND outcome = 'void' AND reason = 'machine-starved'").pluck();
  const forget = ['requests', 'sessions', 'checks', 'artifacts', 'attempts', 'runs'].map((table) => db.prepare(`DELETE FROM ${table} WHERE ${table === 'runs' ? 'id' : 'run_id'} = ?`));
  const save = db.transaction(
    (run: RunRecord, sessions: readonly SessionRow[], checks: readonly CheckRow[], artifacts: readonly ArtifactDigest[], attempts: readonly AttemptRow[]) => {
      if (starved.get(run.id) !== undefined) for (const statement of forget) statement.run(run.id);
      insertRun.run(runToRow(run));
      for (const a of attempts) insertAttempt.run(a);
      for (const s of sessions) {
        insertSession.run({
          runId: run.id, order: s.order, exitCode: s.exitCode, timedOut: s.timedOut ? 1 : 0, durationMs: s.durationMs,
          tokensIn: s.tokensIn, tokensOut: s.tokensOut, costUsd: s.costUsd, error: s.error,
          usageJson: s.usage ? JSON.stringify(s.usage) : null,
          harnessJson: s.harness === undefined || s.harness === null ? null : JSON.stringify(s.harness),
        });
        for (const r of s.requests ?? []) {
          const { quota, withheld, providerToolUse, ...row } = r;
          insertRequest.run({
            ...row, quotaJson: quota ? JSON.stringify(quota) : null, runId: run.id, order: s.order,
            withheldJson: withheld ? JSON.stringify(withheld) : null, providerToolUseJson: providerToolUse ? JSON.stringify(providerToolUse) : null,
          });
        }
      }
      for (const c of checks) insertCheck.run({ ...c, message: c.message ?? null, runId: run.id });
      if (checks.length > 0) countChecks.run(run.id);
      for (const a of artifacts) insertArtifact.run({ ...a, runId: run.id });
    },
  );

  /** Temp artifacts folders not yet moved into place, and how to let go of each. */
  const temps = new Map<string, () => void>();
  return {
    dir,
    runsDir,
    finishedRunIds: () => new Set(db.prepare("SELECT id FROM runs WHERE NOT (outcome = 'void' AND reason = 'machine-starved')").pluck().all() as string[]),
    artifactsTempDir: (runId) => {
      if (isStopping()) throw new StoppingError(`not starting run ${runId}: bakeoff is stopping`);
      const tmp = runTempDir(runsDir, runId);
      mkdirSync(tmp, { recursive: true });
      temps.set(tmp, holdLastStep(() => rmSync(tmp, { recursive: true, force: true })));
      return tmp;
    },
    saveRun: (run, sessions, checks, artifactsTmp, attempts = []) => {
      // once bakeoff is stopping, a run cut short must be redone on resume, never stored as it ended
      if (isStopping()) throw new StoppingError(`not storing run ${run.id}: bakeoff is stopping`);
      temps.get(artifactsTmp)?.();
      temps.delete(artifactsTmp);
      const final = runDir(runsDir, run.id);
      const artifacts = digestArtifacts(artifactsTmp);
      rmSync(final, { recursive: true, force: true });
      renameSync(artifactsTmp, final);
      wrote = true;
      save(run, sessions, checks, artifacts, attempts);
    },
    attempts: () =>
      db.prepare(`SELECT run_id AS runId, attempt, worker, started_at AS startedAt, state, cost_usd AS costUsd,
        tokens_in AS tokensIn, tokens_out AS tokensOut, requests FROM attempts ORDER BY run_id, attempt`).all() as AttemptRow[],
    saveControls: (digest, controls) => {
      wrote = true;
      db.prepare('INSERT OR IGNORE INTO controls (digest, json) VALUES (@digest, @json)').run({ digest, json: JSON.stringify(controls) });
    },
    controls: () =>
      new Map((db.prepare('SELECT digest, json FROM controls').all() as { digest: string; json: string }[]).map((r) => [r.digest, JSON.parse(r.json)])),
    saveBake: (bake) => {
      wrote = true;
      const now = new Date().toISOString();
      db.prepare(
        `INSERT INTO bakes (suite_hash, suite_dir, suite_id, controls_digest, first_at, last_at, tasks_json)
         VALUES (@suiteHash, @suiteDir, @suiteId, @controlsDigest, @now, @now, @tasksJson)
         ON CONFLICT (suite_hash, suite_dir) DO UPDATE SET last_at = excluded.last_at, tasks_json = excluded.tasks_json`,
      ).run({ suiteHash: bake.suiteHash, suiteDir: bake.suiteDir, suiteId: bake.suiteId, controlsDigest: bake.controlsDigest, now, tasksJson: bake.tasks ? JSON.stringify(bake.tasks) : null });
    },
    bakes: () =>
      db
        .prepare(`SELECT suite_id AS suiteId, suite_hash AS suiteHash, suite_dir AS suiteDir, controls_digest AS controlsDigest,
          first_at AS firstAt, last_at AS lastAt, tasks_json AS tasksJson FROM bakes ORDER BY last_at DESC, suite_dir`)
        .all()
        .map((row) => {
          const { tasksJson, ...rest } = row as BakeRow & { tasksJson: string | null };
          return { ...rest, tasks: tasksJson === null ? null : (JSON.parse(tasksJson) as string[]) };
        }),
    artifactDigests: (runId) => {
      const recorded = db.prepare('SELECT artifacts_recorded FROM runs WHERE id = ?').pluck().get(runId) as number | undefined;
      if (!recorded) return null;
      const rows = db.prepare('SELECT path, sha256, bytes FROM artifacts WHERE run_id = ?').all(runId) as ArtifactDigest[];
      return rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    sessions: (runId) =>
      (db.prepare('SELECT * FROM sessions WHERE run_id = ? ORDER BY ord').all(runId) as SessionDbRow[]).map((r) => ({
        order: r.ord, exitCode: r.exit_code, timedOut: r.timed_out === 1, durationMs: r.duration_ms, tokensIn: r.tokens_in,
        tokensOut: r.tokens_out, costUsd: r.cost_usd, error: r.error,
        usage: r.usage_json ? (JSON.parse(r.usage_json) as TokenUsage) : null,
        harness: r.harness_json ? (JSON.parse(r.harness_json) as unknown) : null,
        requests: db
          .prepare(`SELECT seq, started_at AS startedAt, format, path, model, status, failure, latency_ms AS latencyMs,
            ttfb_ms AS ttfbMs, input, cache_read AS cacheRead, cache_write AS cacheWrite, output, reasoning,
            cost_usd AS costUsd, detail, cost_basis AS costBasis, quota_json AS quotaJson, withheld_json AS withheldJson,
            provider_tool_use_json AS providerToolUseJson FROM requests WHERE run_id = ? AND ord = ? ORDER BY seq`)
          .all(runId, r.ord)
          .map((row) => {
            const { quotaJson, withheldJson, providerToolUseJson, ...rest } = row as RequestRow & { quotaJson: string | null; withheldJson: string | null; providerToolUseJson: string | null };
            return {
              ...rest,
              quota: quotaJson ? (JSON.parse(quotaJson) as Record<string, string>) : null,
              withheld: withheldJson ? (JSON.parse(withheldJson) as ToolPolicyItem[]) : null,
              providerToolUse: providerToolUseJson ? (JSON.parse(providerToolUseJson) as string[]) : null,
            };
          }),
      })),
    checks: (runId) =>
      (db.prepare('SELECT ord AS "order", check_id AS id, expected, status, message FROM checks WHERE run_id = ? ORDER BY ord, check_id').all(runId) as CheckRow[]).map(
        ({ message, ...row }) => (message === null || message === undefined ? row : { ...row, message }),
      ),
    checkTallies: (brokenShown) => readCheckTallies(db, brokenShown),
    listRuns: () => {
      // one parse per distinct JSON text: a bake's runs share their agent, runtime, flags and catalog texts
      const parse = sharedParse();
      const share = sharedValues();
      const runs: RunRecord[] = [];
      // rows as arrays (better-sqlite3's raw mode): a 33-key object per row was a third of the read
      for (const values of db.prepare(`SELECT ${RUN_COLUMNS.join(', ')} FROM runs ORDER BY started_at, id`).raw().iterate() as IterableIterator<unknown[]>) {
        runs.push(rowToRun(values as unknown as RawRow, parse, share));
      }
      return runs;
    },
    listLeaderboardRuns: () => readLeaderboardRuns(db),
    quotaReadings: () =>
      (db.prepare(`SELECT runs.agent_id AS agent, requests.started_at AS at, requests.quota_json AS quota FROM requests
          JOIN runs ON runs.id = requests.run_id WHERE requests.quota_json IS NOT NULL ORDER BY requests.started_at, requests.run_id, requests.seq`).all() as { agent: string; at: string; quota: string }[])
        .map((r) => ({ agent: r.agent, at: r.at, quota: JSON.parse(r.quota) as Record<string, string> })),
    runSets: () =>
      db.prepare('SELECT suite_id AS suiteId, suite_hash AS suiteHash, controls_digest AS controlsDigest, count(*) AS runs FROM runs GROUP BY 1, 2, 3 ORDER BY 4 DESC').all() as RunSet[],
    close: () => {
      db.close();
      // what this process wrote, only SQLite wrote: the database is as intact as it was opened
      if (wrote) rememberIntact(dbPath, options.intact);
    },
  };
}

/** The schema version a database was written with (0: none yet); a damaged header is refused. */
function schemaVersion(db: Database.Database, dbPath: string): number {
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } catch (error) {
    if (isDamage(error)) throw damagedDatabase(dbPath, (error as Error).message);
    throw error;
  }
}

/** Applies the migrations the database lacks; true when it applied any. */
function migrate(db: Database.Database): boolean {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new UserError(`${db.name}: written by a newer bakeoff (schema ${current}, this one knows ${MIGRATIONS.length})`);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return current < MIGRATIONS.length;
}

function removeTempDirs(runsDir: string): void {
  for (const dir of runTempDirs(path.dirname(runsDir))) rmSync(dir, { recursive: true, force: true });
}

/**
 * The half-written run folders (`runs/.tmp-*`) of the results folder `dir`: a bakeoff killed
 * while it wrote them left them; the next `run` on the folder removes them (take the folder's
 * lock before removing them any other way).
 */
export function runTempDirs(dir: string): string[] {
  const runsDir = resultsPaths(dir).runsDir;
  if (!existsSync(runsDir)) return [];
  return readdirSync(runsDir).filter(isRunTempName).map((name) => path.join(runsDir, name));
}

interface Row {
  id: string; suite_id: string; suite_hash: string; controls_digest: string; task: string; agent_id: string;
  agent_json: string; replay: number; seed: number | null; level: number | null; outcome: Outcome['kind'];
  reason: string | null; detail: string | null; agent_sec: number; grade_sec: number; cost_usd: number | null;
  tokens_in: number | null; tokens_out: number | null; lines_added: number; lines_removed: number; points: number;
  max_points: number; runtime_json: string; started_at: string; finished_at: string; orders_json: string;
  usage_json: string | null; flags_json: string; effort_catalog_json: string | null;
  plain_lines_added: number | null; plain_lines_removed: number | null; steps_json: string; web_attempts: number | null;
}

interface SessionDbRow {
  ord: number; exit_code: number | null; timed_out: number; duration_ms: number; tokens_in: number | null;
  tokens_out: number | null; cost_usd: number | null; error: string | null; usage_json: string | null; harness_json: string | null;
}

/** `INSERT INTO <table> (<column>, …) VALUES (@<parameter>, …)`, each column with the parameter that fills it. */
function namedInsert(table: string, columns: Readonly<Record<string, string>>): string {
  const names = Object.keys(columns);
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((c) => `@${columns[c]}`).join(', ')})`;
}

function runToRow(run: RunRecord): Record<string, unknown> {
  const o = run.outcome;
  return {
    ...run,
    agentId: run.agent.id,
    agentJson: JSON.stringify(run.agent),
    outcome: o.kind,
    reason: o.kind === 'solved' ? null : o.reason,
    detail: o.kind === 'solved' ? null : (o.detail ?? null),
    runtimeJson: JSON.stringify(run.runtime),
    ordersJson: JSON.stringify(run.orders),
    usageJson: run.usage ? JSON.stringify(run.usage) : null,
    flagsJson: JSON.stringify(run.flags ?? []),
    effortCatalogJson: run.effortCatalog ? JSON.stringify(run.effortCatalog) : null,
    plainLinesAdded: run.plainLines?.added ?? null,
    plainLinesRemoved: run.plainLines?.removed ?? null,
    plainLines: undefined,
    stepsJson: JSON.stringify(run.steps ?? []),
    steps: undefined,
    webAttempts: run.webAttempts ?? null,
    artifactsRecorded: 1,
    effortCatalog: undefined,
    usage: undefined,
    flags: undefined,
    agent: undefined,
    orders: undefined,
  };
}

/** The columns a run record is read from (`detail` and the rest; never `artifacts_recorded`). */
const RUN_COLUMNS = [
  'id', 'suite_id', 'suite_hash', 'controls_digest', 'task', 'agent_id', 'agent_json', 'replay', 'seed', 'level', 'outcome', 'reason', 'detail',
  'agent_sec', 'grade_sec', 'cost_usd', 'tokens_in', 'tokens_out', 'lines_added', 'lines_removed', 'points', 'max_points', 'runtime_json',
  'started_at', 'finished_at', 'orders_json', 'usage_json', 'flags_json', 'effort_catalog_json', 'plain_lines_added', 'plain_lines_removed', 'steps_json', 'web_attempts',
] as const satisfies readonly (keyof Row)[];

/** A row of `RUN_COLUMNS` as better-sqlite3's raw mode gives it: the values in the columns' order. */
type RowValues<T extends readonly (keyof Row)[]> = { -readonly [I in keyof T]: Row[T[I] & keyof Row] };
type RawRow = RowValues<typeof RUN_COLUMNS>;

function rowToRun(row: RawRow, parse: <T>(text: string) => T, share: SharedValues): RunRecord {
  const [
    id, suiteId, suiteHash, controlsDigest, task, , agentJson, replay, seed, level, kind, reason, detail,
    agentSec, gradeSec, costUsd, tokensIn, tokensOut, linesAdded, linesRemoved, points, maxPoints, runtimeJson,
    startedAt, finishedAt, ordersJson, usageJson, flagsJson, effortCatalogJson, plainAdded, plainRemoved, stepsJson, webAttempts,
  ] = row;
  const outcome = share.outcome(kind, reason, detail);
  return {
    id,
    ...runIdentity(share, parse, { suiteId, suiteHash, controlsDigest, task, agentJson }),
    replay,
    seed,
    level,
    outcome,
    agentSec,
    gradeSec,
    costUsd,
    tokensIn,
    tokensOut,
    linesAdded,
    linesRemoved,
    plainLines: plainAdded === null || plainRemoved === null ? null : { added: plainAdded, removed: plainRemoved },
    points,
    maxPoints,
    orders: parse<RunRecord['orders']>(ordersJson),
    runtime: parse<Record<string, string>>(runtimeJson),
    usage: usageJson ? (JSON.parse(usageJson) as TokenUsage) : null,
    flags: parse<string[]>(flagsJson),
    effortCatalog: effortCatalogJson ? parse<EffortCatalogRef>(effortCatalogJson) : null,
    // each run's own steps: parsed once, not shared
    steps: stepsJson === '[]' ? [] : (JSON.parse(stepsJson) as StepRecord[]),
    webAttempts,
    startedAt,
    finishedAt,
  };
}
