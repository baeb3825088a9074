import { statfsSync } from 'node:fs';
import path from 'node:path';
import { DISK_FULL_CODES, errorCode } from '../errors.js';
import type { Agent } from '../agents/index.js';
import { planRuns, type RunSpec } from '../plan/index.js';
import { type Isolation, disposeScratch, freshScratchRoot, type SetupProgress } from '../sandbox/index.js';
import type { Store, ResultsLock } from '../store/index.js';
import type { SuiteLock, Order, Suite, Task } from '../suite/index.js';
import { createBudget, type Budget } from './budget.js';
import { generateChecks, type GeneratedSet } from './generate-checks.js';
import type { RunRecord } from '../types.js';
import { baseEnv } from './base-env.js';
import { runPool } from './pool.js';
import { prepareTask } from './prepare-task.js';
import { probeWorkspaceMode } from './probe-workspace-mode.js';
import { runTask, type RunStage, type TaskRunResult } from './run-task.js';
import { buildRunRecord } from './run-record.js';

export interface BakeOptions {
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly agents: readonly Agent[];
  /** Runs per (task, agent); defaults to the suite's `runsPerTask`. */
  readonly runsPerTask?: number;
  readonly concurrency: number;
  readonly store: Store;
  /** The store's folder lock, held by the caller for the whole bake (`lockResults`). */
  readonly resultsLock: ResultsLock;
  readonly isolation: Isolation;
  readonly cacheDir: string;
  readonly runtime: Readonly<Record<string, string>>;
  readonly onEvent?: (event: BakeEvent) => void;
  /** Agents with work for some tasks only (`Agent.tasks`): `skip` the others (default) or run them with `empty` changes. */
  readonly patchMissing?: 'skip' | 'empty';
}

export type BakeEvent =
  | { readonly type: 'plan'; readonly total: number; readonly alreadyDone: number; readonly rejected: readonly { task: string; reason: string }[] }
  | { readonly type: 'prepare'; readonly task: string; readonly cached: boolean; readonly ok: boolean; readonly reason?: string }
  /** About once a second while a task's setup command runs. */
  | { readonly type: 'setup-progress'; readonly task: string; readonly progress: SetupProgress }
  /** A run starts (`agent` is the agent's id), then each order's session and grading (`run-stage`). */
  | { readonly type: 'run-start'; readonly runId: string; readonly task: string; readonly agent: string; readonly replay: number }
  | ({ readonly type: 'run-stage'; readonly runId: string } & RunStage)
  | { readonly type: 'run-end'; readonly record: RunRecord; readonly error?: Error };

export interface BakeSummary {
  readonly planned: number;
  readonly alreadyDone: number;
  readonly ran: number;
  readonly rejected: readonly { task: string; reason: string }[];
}

/**
 * Runs every planned run that is not in the store yet (so re-running the same bake resumes),
 * `concurrency` at a time, storing each as soon as it ends.
 */
export async function runBake(options: BakeOptions): Promise<BakeSummary> {
  const { suite, lock, store } = options;
  if (!options.resultsLock.isHeld() || options.resultsLock.dir !== path.resolve(store.dir)) {
    throw new Error(`runBake: the lock of ${store.dir} is not held (take it with lockResults before opening the store)`);
  }
  const emit = options.onEvent ?? (() => {});
  const admitted = suite.tasks.filter((t) => lock.tasks[t.id]?.admitted === true);
  const rejected = suite.tasks
    .filter((t) => lock.tasks[t.id]?.admitted !== true)
    .map((t) => {
      const entry = lock.tasks[t.id];
      return { task: t.id, reason: entry && !entry.admitted ? entry.reason : 'not in the lock file' };
    });
  const { seed, level } = runSeedAndLevel(suite);
  // an agent with work for some tasks only (a predictions file) runs on those, unless told otherwise
  const covers = (spec: RunSpec): boolean => options.patchMissing === 'empty' || (options.agents[spec.agentIndex]!.tasks?.has(spec.task) ?? true);
  const specs = planRuns({
    suiteHash: suite.hash,
    tasks: admitted.map((t) => t.id),
    agents: options.agents.map((a) => a.digest),
    runsPerTask: options.runsPerTask ?? suite.controls.runsPerTask,
    seed,
  }).filter(covers);
  const done = store.finishedRunIds();
  const pending = specs.filter((s) => !done.has(s.id));
  emit({ type: 'plan', total: specs.length, alreadyDone: specs.length - pending.length, rejected });
  store.saveControls(suite.controlsDigest, suite.controls);
  // `bakeoff verify` re-grades from this folder.
  store.saveBake({ suiteId: suite.id, suiteHash: suite.hash, suiteDir: path.resolve(suite.dir), controlsDigest: suite.controlsDigest, tasks: admitted.map((t) => t.id) });

  // One scratch root per results folder: what a killed bake left behind is cleared here — only
  // ever by the holder of the folder's lock, so never under a live bake's feet.
  const scratch = await freshScratchRoot(`bake ${store.dir}`);
  const workspaceMode = await probeWorkspaceMode(scratch, options.isolation);
  const env = baseEnv();
  const prepared = new Map<string, { repo: string } | { error: string }>();
  for (const task of admitted.filter((t) => pending.some((s) => s.task === t.id))) {
    const result = await prepareTask({
      task,
      controls: suite.controls,
      isolation: options.isolation,
      env,
      cacheDir: options.cacheDir,
      onProgress: (progress) => emit({ type: 'setup-progress', task: task.id, progress }),
    });
    prepared.set(task.id, result.ok ? { repo: result.repo } : { error: result.reason });
    emit({ type: 'prepare', task: task.id, cached: result.ok && result.cached, ok: result.ok, ...(result.ok ? {} : { reason: result.reason }) });
  }

  const byId = new Map(admitted.map((t) => [t.id, t]));
  const shared = { env, scratch, seed, level, workspaceMode, budgets: new Map<string, Budget>(), checks: new Map<string, Promise<GeneratedSet>>() };
  await runPool(pending, options.concurrency, async (spec) => {
    const task = byId.get(spec.task)!;
    emit({ type: 'run-start', runId: spec.id, task: task.id, agent: options.agents[spec.agentIndex]!.info.id, replay: spec.replay });
    const record = await runOne(options, spec, task, prepared.get(task.id)!, shared, (stage) => emit({ type: 'run-stage', runId: spec.id, ...stage }));
    emit({ type: 'run-end', ...record });
  });
  await disposeScratch(scratch);
  return { planned: specs.length, alreadyDone: specs.length - pending.length, ran: pending.length, rejected };
}

async function runOne(
  options: BakeOptions,
  spec: RunSpec,
  task: Task,
  prepared: { repo: string } | { error: string },
  shared: Shared,
  onStage: (stage: RunStage) => void,
): Promise<{ record: RunRecord; error?: Error }> {
  const { store, suite } = options;
  const agent = options.agents[spec.agentIndex]!;
  const artifactsDir = store.artifactsTempDir(spec.id);
  const scratchDir = path.join(shared.scratch, spec.id);
  const startedAt = new Date().toISOString();
  const taskLock = options.lock.tasks[task.id];
  if ('error' in prepared) {
    const record = voidRecord(options, spec, task, startedAt, 'setup-failed', prepared.error, shared);
    store.saveRun(record, [], [], artifactsDir);
    return { record };
  }
  let done: TaskRunResult & { readonly error?: Error };
  try {
    done = await runTask({
      runId: spec.id,
      suite,
      task,
      lock: taskLock as Extract<typeof taskLock, { admitted: true }>,
      agent,
      replay: spec.replay,
      preparedRepo: prepared.repo,
      isolation: options.isolation,
      env: shared.env,
      budget: budgetFor(suite, agent.digest, spec.replay, shared.budgets),
      checksFor: (order) => checksFor(task, order, shared),
      seed: shared.seed,
      level: shared.level,
      scratchDir,
      artifactsDir,
      runtime: { ...options.runtime, sandbox: options.isolation.sandbox.name },
      onStage,
    });
  } catch (error) {
    // the results folder's disk is full or failing: not this run's verdict; the bake stops and resuming redoes the run
    if (isStorageFailure(error, store.dir)) throw error;
    done = { record: voidRecord(options, spec, task, startedAt, 'infra-error', (error as Error).message, shared), sessions: [], checks: [], error: error as Error };
  } finally {
    await disposeScratch(scratchDir);
  }
  // saved once, outside the catch: a save that fails part-way is never retried over a moved folder
  store.saveRun(done.record, done.sessions, done.checks, artifactsDir);
  return done.error ? { record: done.record, error: done.error } : { record: done.record };
}

/**
 * True when `error` is the results folder's disk failing, not the run: SQLite's full disk or I/O
 * error, an I/O error or a read-only file system under the folder, or a full disk while the results folder's own file
 * system has next to no space left (an agent fills only its own quota'd workspace, whose
 * errors are its failure, and can never fill the results disk: its output is capped).
 */
function isStorageFailure(error: unknown, resultsDir: string): boolean {
  const code = errorCode(error);
  if (code === null) return false;
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) return true;
  if (code === 'EROFS' || code === 'EIO') {
    const at = (error as { path?: unknown }).path;
    return typeof at === 'string' && at.startsWith(resultsDir + path.sep);
  }
  if (!DISK_FULL_CODES.has(code)) return false;
  try {
    const fs = statfsSync(resultsDir);
    return fs.bavail * fs.bsize < LOW_SPACE_BYTES;
  } catch {
    return true;
  }
}

/** Free space under which a full-disk error is the results disk's (4 MiB). */
const LOW_SPACE_BYTES = 4 * 1024 * 1024;

/** State the runs of one bake share. */
interface Shared {
  readonly env: Record<string, string>;
  readonly scratch: string;
  readonly seed: number | null;
  readonly level: number | null;
  /** The workspace kind this bake's runs get (`overlay` or `copy`), for void runs that never made one. */
  readonly workspaceMode: string | null;
  /** Agent time budgets by scope key. */
  readonly budgets: Map<string, Budget>;
  /** Generated checks by task, order, seed and level (generated once per bake). */
  readonly checks: Map<string, Promise<GeneratedSet>>;
}

/** Runs use one seed and one level: the controls' `seed` (default: the first of `seeds`) and `level`. */
export function runSeedAndLevel(suite: Suite): { seed: number | null; level: number | null } {
  const usesChecks = suite.tasks.some((t) => t.manifest.grading === 'checks');
  if (!usesChecks) return { seed: null, level: null };
  return { seed: suite.controls.seed ?? suite.controls.seeds[0]!, level: suite.controls.level };
}

function budgetFor(suite: Suite, agentDigest: string, replay: number, budgets: Map<string, Budget>): Budget {
  const b = suite.controls.agentBudget;
  if (!b) return createBudget(null);
  if (b.scope === 'run') return createBudget(b.totalSec);
  const key = `${agentDigest}:${replay}`;
  if (!budgets.has(key)) budgets.set(key, createBudget(b.totalSec));
  return budgets.get(key)!;
}

function checksFor(task: Task, order: Order, shared: Shared): Promise<GeneratedSet> {
  const key = `${task.id}:${order.index}:${shared.seed}:${shared.level}`;
  if (!shared.checks.has(key)) shared.checks.set(key, generateChecks(order.hiddenDir, shared.seed ?? 0, shared.level ?? 1));
  return shared.checks.get(key)!;
}

function voidRecord(
  options: BakeOptions,
  spec: RunSpec,
  task: Task,
  startedAt: string,
  reason: 'setup-failed' | 'infra-error',
  detail: string,
  shared: Shared,
): RunRecord {
  const { suite } = options;
  // every field a graded run records, with what a run that never got to work has
  return buildRunRecord(
    {
      id: spec.id,
      suite,
      task: task.id,
      agent: options.agents[spec.agentIndex]!.info,
      effortCatalog: options.agents[spec.agentIndex]!.effortCatalog ?? null,
      replay: spec.replay,
      seed: shared.seed,
      level: shared.level,
      runtime: { ...options.runtime, sandbox: options.isolation.sandbox.name, ...(shared.workspaceMode ? { workspace: shared.workspaceMode } : {}) },
      startedAt,
    },
    { kind: 'void', reason, detail: detail.slice(0, 2000) },
  );
}
