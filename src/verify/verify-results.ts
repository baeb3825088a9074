import path from 'node:path';
import { UserError } from '../errors.js';
import { type Isolation, disposeScratch, freshScratchRoot, MAX_CPU_WEIGHT, weightedIsolation } from '../sandbox/index.js';
import { prepareTask, baseEnv, generateChecks, outcomeRules, type GeneratedSet, runPool } from '../run/index.js';
import { compareArtifactDigests, digestArtifacts, type ArtifactDigest, type ArtifactMismatch, openStore, runDirInResults, type Store } from '../store/index.js';
import { loadSuite, readLock, type SuiteLock, type Controls, type Order, type Suite, type Task } from '../suite/index.js';
import type { Outcome, RunRecord } from '../types.js';
import { exists, holdQuiet } from '../util/index.js';
import { compareVerdicts, comparisonBasis, type Regrade, type VerdictMismatch } from './compare-verdicts.js';
import { regradeRun } from './regrade-run.js';
import { readVerifyStamp, stampKeyOf, writeVerifyStamp } from './verify-stamp.js';

export interface VerifyOptions {
  /** Suite folder to re-grade with; default: the folder the runs were baked from (recorded in the results). */
  readonly suiteDir?: string;
  /** The isolation for the suite's controls (the CLI's: a working sandbox, or none when asked). */
  readonly isolationFor: (controls: Controls) => Promise<Isolation>;
  /** Where prepared repos are kept (shared with `bakeoff run`). */
  readonly cacheDir: string;
  /** Runs re-graded at once. */
  readonly concurrency: number;
  /** Told how many runs there are (before the tasks are set up), when a task's setup starts, and when a run's re-check starts and ends. */
  readonly onPlan?: (total: number) => void;
  readonly onSetup?: (task: string) => void;
  readonly onRunStart?: (run: RunRecord) => void;
  readonly onRunVerified?: (run: RunVerification) => void;
  /** The sandbox backend the re-grades run in, by name (recorded in the stamp's key). */
  readonly sandbox: string;
  /**
   * Return the last clean re-check of this folder instead of re-grading, when nothing it
   * checked has changed since (`verified.json`: same bakeoff, runs, artifacts, suite and lock).
   * `publish` does; `verify` never does.
   */
  readonly reuseStamp?: boolean;
  /**
   * Re-check only the runs of these tasks and agents (an empty list: all of them). A partial
   * re-check reuses no stamp and writes none: it never stands in for the whole folder's.
   */
  readonly select?: RunSelection;
}

/** Which stored runs a re-check covers: ids as stored (`bakeoff report` shows them). */
export interface RunSelection {
  readonly tasks: readonly string[];
  readonly agents: readonly string[];
}

/** One stored run, checked. */
export interface RunVerification {
  readonly id: string;
  readonly task: string;
  readonly agent: string;
  readonly replay: number;
  /** The stored outcome. */
  readonly stored: Outcome;
  /**
   * What was compared besides the checksums: `outcome-and-points`; `points` when the stored
   * failure came from the agent's session (a re-grade cannot reproduce it); `checksums` for
   * void runs (nothing was graded, so nothing is re-graded).
   */
  readonly basis: 'outcome-and-points' | 'points' | 'checksums';
  /** What re-grading gave; null for void runs and runs that could not be re-graded. */
  readonly regraded: Regrade | null;
  /** False for runs stored before bakeoff recorded artifact checksums (theirs are not checked). */
  readonly checksumsRecorded: boolean;
  /** Artifact files changed, missing or extra since the run was stored. */
  readonly artifacts: readonly ArtifactMismatch[];
  /** Where the stored verdict and the re-grade disagree. */
  readonly verdict: readonly VerdictMismatch[];
  /** Why the run could not be re-graded (setup failed, grading broke); null when it was. */
  readonly error: string | null;
  readonly durationMs: number;
}

export interface VerifyResult {
  /** The results folder (absolute). */
  readonly results: string;
  readonly suite: { readonly id: string; readonly hash: string; readonly dir: string };
  /** Every stored run (or every selected one), in stored order. */
  readonly runs: readonly RunVerification[];
  /** Runs with at least one artifact or verdict mismatch. */
  readonly mismatches: number;
  /** Runs that could not be re-graded (an infrastructure problem, not a finding). */
  readonly unverified: number;
  readonly durationMs: number;
  /** When this is the stamped result of an earlier re-check (`reuseStamp`): when that re-check ran. */
  readonly reusedFrom?: string;
  /** The runs asked for (`select`) and how many runs the folder stores; null when every run was re-checked. */
  readonly selection: (RunSelection & { readonly storedRuns: number }) | null;
}

/**
 * Re-checks every stored run of a results folder from scratch:
 * - artifacts: the sha256 of every file under `runs/<run-id>/` against the ones recorded when
 *   the run was stored (a changed, missing or extra file is a mismatch);
 * - verdict: every order re-graded from its stored change (store/run-folder.ts) with the grading
 *   code of a run (`gradeOrder`), compared by outcome kind and reason and by points per order.
 * Void runs are only checksum-verified (nothing was graded). A re-grade that disagrees is a
 * mismatch only when it ran to its end unhindered: one whose test run timed out or was starved
 * by the machine is tried once more, alone and weighing like many processes, and then the run
 * is "could not re-check" (`error`), never a mismatch (decision 011). A run whose stored failure comes
 * from the agent's session (session-timeout, memory-limit, pids-limit, disk-limit) is compared
 * on points only: grading its change alone cannot reproduce that outcome.
 *
 * The suite is loaded from the folder the runs were baked from (or `suiteDir`) and must have
 * the runs' suite hash; prepared repos come from the same cache as `bakeoff run`. Only reads
 * the results folder (the store's migrations aside). Throws UserError when the results or the
 * suite do not fit; a run's problems are data.
 */
export async function verifyResults(resultsDir: string, options: VerifyOptions): Promise<VerifyResult> {
  const started = performance.now();
  const store = openStore(path.resolve(resultsDir), { create: false });
  try {
    const stored = store.listRuns();
    if (stored.length === 0) throw new UserError(`${resultsDir}: no finished runs to verify`);
    const suite = await suiteOfRuns(store, stored, options.suiteDir);
    // every artifact hashed once: the stamp's key and each run's comparison read the same digests
    const onDisk = new Map(stored.map((run) => [run.id, digestArtifacts(path.join(store.runsDir, run.id))] as const));
    const key = await stampKeyOf({ runs: stored, onDisk, suite, sandbox: options.sandbox });
    const selection = selectionOf(options.select, stored.length);
    const runs = selection === null ? stored : selectRuns(stored, selection, store.dir);
    if (options.reuseStamp === true && selection === null) {
      const stamped = await readVerifyStamp<VerifyResult>(store.dir, key);
      if (stamped !== null) return { ...stamped.result, reusedFrom: stamped.at };
    }
    const lock = await readLock(suite);
    const isolation = await options.isolationFor(suite.controls);
    const scratch = await freshScratchRoot(`verify ${store.dir}`);
    try {
      const ctx: Context = { store, suite, lock, isolation, scratch, env: baseEnv(), prepared: new Map(), checks: new Map(), onDisk };
      options.onPlan?.(runs.length);
      await prepareTasks(ctx, runs, options.cacheDir, options.onSetup);
      const out: RunVerification[] = new Array(runs.length);
      await runPool([...runs.keys()], options.concurrency, async (i) => {
        options.onRunStart?.(runs[i]!);
        out[i] = await verifyRun(ctx, runs[i]!);
        options.onRunVerified?.(out[i]!);
      });
      const result: VerifyResult = {
        results: store.dir,
        suite: { id: suite.id, hash: suite.hash, dir: suite.dir },
        runs: out,
        mismatches: out.filter((r) => r.artifacts.length > 0 || r.verdict.length > 0).length,
        unverified: out.filter((r) => r.error !== null).length,
        durationMs: performance.now() - started,
        selection,
      };
      if (result.mismatches === 0 && result.unverified === 0 && selection === null) await writeVerifyStamp(store.dir, key, result);
      return result;
    } finally {
      await disposeScratch(scratch);
    }
  } finally {
    store.close();
  }
}

/** The selection asked for, or null when it leaves every run in. */
function selectionOf(select: RunSelection | undefined, storedRuns: number): VerifyResult['selection'] {
  if (select === undefined || (select.tasks.length === 0 && select.agents.length === 0)) return null;
  return { tasks: [...new Set(select.tasks)], agents: [...new Set(select.agents)], storedRuns };
}

/**
 * The stored runs of the selected tasks (any, when none is named) by the selected agents (any,
 * when none is named). An id no stored run has is refused, naming the ids there are; so is a
 * selection that leaves no run.
 */
export function selectRuns(runs: readonly RunRecord[], select: RunSelection, dir: string): RunRecord[] {
  const refuseUnknown = (flag: string, asked: readonly string[], there: readonly string[]): void => {
    const known = new Set(there);
    const unknown = asked.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new UserError(`${flag}: expected ${flag === '--task' ? 'a task' : 'an agent'} id of the runs stored in ${dir} (${[...known].sort().join(', ')}), received ${unknown.map((id) => JSON.stringify(id)).join(', ')}`);
    }
  };
  refuseUnknown('--task', select.tasks, runs.map((r) => r.task));
  refuseUnknown('--agent', select.agents, runs.map((r) => r.agent.id));
  const picked = runs.filter((r) => (select.tasks.length === 0 || select.tasks.includes(r.task)) && (select.agents.length === 0 || select.agents.includes(r.agent.id)));
  if (picked.length === 0) throw new UserError(`${dir}: no stored run is of task ${select.tasks.join(' or ')} by agent ${select.agents.join(' or ')}`);
  return picked;
}

interface Context {
  readonly store: Store;
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly isolation: Isolation;
  readonly scratch: string;
  readonly env: Readonly<Record<string, string>>;
  /** Prepared repo (or why setup failed) by task id. */
  readonly prepared: Map<string, { repo: string } | { error: string }>;
  /** Generated checks by task, order, seed and level (generated once per verify). */
  readonly checks: Map<string, Promise<GeneratedSet>>;
  /** The digests of each run's artifacts on disk, taken when the re-check started (the stamp's key holds the same). */
  readonly onDisk: ReadonlyMap<string, readonly ArtifactDigest[]>;
}

/** The suite the runs were graded with: one suite hash, from the recorded folder or `suiteDir`. */
async function suiteOfRuns(store: Store, runs: readonly RunRecord[], suiteDir: string | undefined): Promise<Suite> {
  const hashes = [...new Set(runs.map((r) => r.suiteHash))];
  if (hashes.length > 1) {
    throw new UserError(`${store.dir}: runs of ${hashes.length} suite hashes (${hashes.join(', ')}); verify one suite's results folder at a time`);
  }
  const hash = hashes[0]!;
  let dir = suiteDir;
  if (dir === undefined) {
    dir = store.bakes().find((b) => b.suiteHash === hash)?.suiteDir;
    if (dir === undefined) {
      throw new UserError(`${store.dir}: no suite folder recorded for suite hash ${hash} (results stored before bakeoff recorded it); pass --suite DIR`);
    }
    if (!(await exists(dir))) throw new UserError(`${dir}: the suite folder these runs were baked from is gone; pass --suite DIR`);
  }
  const suite = await loadSuite(dir);
  if (suite.hash !== hash) {
    throw new UserError(
      `${suite.dir}: suite hash ${suite.hash}, but the runs in ${store.dir} were graded with suite hash ${hash}; ` +
        'verify needs the suite exactly as it was when the runs were made',
    );
  }
  return suite;
}

/** Prepares the repo of every task with a run to re-grade, exactly as `runBake` does. */
async function prepareTasks(ctx: Context, runs: readonly RunRecord[], cacheDir: string, onSetup?: (task: string) => void): Promise<void> {
  const needed = new Set(runs.filter((r) => r.outcome.kind !== 'void').map((r) => r.task));
  for (const task of ctx.suite.tasks.filter((t) => needed.has(t.id))) {
    onSetup?.(task.id);
    const result = await prepareTask({ task, controls: ctx.suite.controls, isolation: ctx.isolation, env: ctx.env, cacheDir });
    ctx.prepared.set(task.id, result.ok ? { repo: result.repo } : { error: `setup failed: ${result.reason}` });
  }
}

async function verifyRun(ctx: Context, run: RunRecord): Promise<RunVerification> {
  const started = performance.now();
  const artifactsDir = path.join(ctx.store.runsDir, run.id);
  const recorded = ctx.store.artifactDigests(run.id);
  const base = {
    id: run.id,
    task: run.task,
    agent: run.agent.id,
    replay: run.replay,
    stored: run.outcome,
    checksumsRecorded: recorded !== null,
    artifacts: recorded ? compareArtifactDigests(recorded, ctx.onDisk.get(run.id) ?? []) : [],
  };
  const done = (rest: Pick<RunVerification, 'basis' | 'regraded' | 'verdict' | 'error'>): RunVerification => ({
    ...base,
    ...rest,
    durationMs: performance.now() - started,
  });
  // a run without its folder has nothing to re-hash or re-grade: the whole folder is the mismatch
  if (!(await exists(artifactsDir))) {
    const basis = run.outcome.kind === 'void' ? 'checksums' : comparisonBasis(run.outcome);
    return { ...done({ basis, regraded: null, verdict: [], error: null }), artifacts: [{ path: `${runDirInResults(run.id)} (the run's folder)`, change: 'missing' }] };
  }
  if (run.outcome.kind === 'void') return done({ basis: 'checksums', regraded: null, verdict: [], error: null });
  const basis = comparisonBasis(run.outcome);
  const task = ctx.suite.tasks.find((t) => t.id === run.task);
  const taskLock = ctx.lock.tasks[run.task];
  const prepared = ctx.prepared.get(run.task);
  const cannot = (error: string): RunVerification => done({ basis, regraded: null, verdict: [], error });
  if (!task || taskLock?.admitted !== true) return cannot(`task ${run.task} is not admitted in ${path.join(ctx.suite.dir, 'bakeoff.lock.json')}`);
  if (!prepared || 'error' in prepared) return cannot(prepared?.error ?? 'no prepared repo');
  const regrade = (attempt: number, isolation: Isolation) =>
    regradeRun({
      run,
      task,
      lock: taskLock,
      rules: outcomeRules(ctx.suite.controls),
      artifactsDir,
      preparedRepo: prepared.repo,
      isolation,
      env: ctx.env,
      testTimeoutMs: ctx.suite.controls.testWallClockSec * 1000,
      outputBytes: ctx.suite.controls.outputMb * 1024 * 1024,
      checksFor: (order) => checksFor(ctx, task, order, run),
      scratchDir: path.join(ctx.scratch, `${run.id}-${attempt}`),
    }).finally(() => disposeScratch(path.join(ctx.scratch, `${run.id}-${attempt}`)));
  try {
    // a disagreement only counts from a re-grade that ran to its end unhindered; one that timed
    // out or was starved is tried once more — alone (no other re-grade starts meanwhile) and
    // weighing like many processes, so that a loaded host cannot starve it (its CPU limit still
    // holds; waiting for room instead waited out a whole test clock on a host that had none) —
    // then the run is "could not re-check" (decision 011)
    let regraded = await regrade(1, ctx.isolation);
    let verdict = compareVerdicts(run, regraded);
    if (verdict.length > 0 && (regraded.doubts ?? []).length > 0) {
      const release = holdQuiet();
      try {
        regraded = await regrade(2, weightedIsolation(ctx.isolation, MAX_CPU_WEIGHT));
      } finally {
        release();
      }
      verdict = compareVerdicts(run, regraded);
      if (verdict.length > 0 && (regraded.doubts ?? []).length > 0) {
        return cannot(`could not re-check: ${regraded.doubts!.join('; ')}; tried twice (the machine is busy?)`);
      }
    }
    return done({ basis, regraded, verdict, error: null });
  } catch (error) {
    return cannot(`re-grading broke: ${(error as Error).message}`);
  }
}

function checksFor(ctx: Context, task: Task, order: Order, run: RunRecord): Promise<GeneratedSet> {
  const key = `${task.id}:${order.index}:${run.seed}:${run.level}`;
  if (!ctx.checks.has(key)) ctx.checks.set(key, generateChecks(order.hiddenDir, run.seed ?? 0, run.level ?? 1));
  return ctx.checks.get(key)!;
}
