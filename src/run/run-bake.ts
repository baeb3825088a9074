import path from 'node:path';
import type { Agent } from '../agents/index.js';
import { planRuns, selectTasks, type RunSpec, type TaskSelection } from '../plan/index.js';
import { type Isolation, disposeScratch, freshScratchRoot, type SetupProgress } from '../sandbox/index.js';
import type { CheckRow, RequestRow, ResultsLock, SessionRow, Store } from '../store/index.js';
import type { SuiteLock, Order, Suite, Task } from '../suite/index.js';
import { stoppedSentence, stopsPass } from '../report/view/budget-use.js';
import { createPasses, type Pass } from './budget.js';
import { keptOrGeneratedChecks, type GeneratedChecksCache, type GeneratedSet } from './generate-checks.js';
import type { RunRecord } from '../types.js';
import { baseEnv } from './base-env.js';
import { runPool, type Concurrency } from './pool.js';
import { prepareTask } from './prepare-task.js';
import { probeWorkspaceMode } from './probe-workspace-mode.js';
import { runTask, type RunStage } from './run-task.js';
import { buildRunRecord } from './run-record.js';
import { isStorageFailure } from './storage.js';
import { openProbeCache } from '../util/index.js';

export interface BakeOptions {
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly agents: readonly Agent[];
  /** Runs per (task, agent); defaults to the suite's `runsPerTask`. */
  readonly runsPerTask?: number;
  /** Runs at once, or `auto` (one more only while the machine has room, measured). */
  readonly concurrency: Concurrency;
  readonly store: Store;
  /** The store's folder lock, held by the caller for the whole bake (`lockResults`). */
  readonly resultsLock: ResultsLock;
  readonly isolation: Isolation;
  readonly cacheDir: string;
  readonly runtime: Readonly<Record<string, string>>;
  readonly onEvent?: (event: BakeEvent) => void;
  /** Agents with work for some tasks only (`Agent.tasks`): `skip` the others (default) or run them with `empty` changes. */
  readonly patchMissing?: 'skip' | 'empty';
  /**
   * Some of the admitted tasks only (`--task`, `--limit`). The bake still records every admitted
   * task as planned, so the leaderboard says `N of M tasks` of every agent until the rest are run.
   */
  readonly selection?: TaskSelection;
}

export type BakeEvent =
  | { readonly type: 'plan'; readonly total: number; readonly alreadyDone: number; readonly rejected: readonly { task: string; reason: string }[] }
  | { readonly type: 'prepare'; readonly task: string; readonly cached: boolean; readonly ok: boolean; readonly reason?: string }
  /** About once a second while a task's setup command runs. */
  | { readonly type: 'setup-progress'; readonly task: string; readonly progress: SetupProgress }
  /** A run starts (`agent` is the agent's id), then each order's session and grading (`run-stage`). */
  | { readonly type: 'run-start'; readonly runId: string; readonly task: string; readonly agent: string; readonly replay: number }
  | ({ readonly type: 'run-stage'; readonly runId: string } & RunStage)
  /** No new run starts, and why (the machine has no room, a starved test run is re-run alone); `why` null: runs start again. */
  | { readonly type: 'pool-hold'; readonly why: string | null }
  /** `worker`: on a fleet, the worker whose run was recorded. */
  | { readonly type: 'run-end'; readonly record: RunRecord; readonly error?: Error; readonly worker?: string };

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
  const { specs, pending } = beginBake(options, emit);

  // One scratch root per results folder: what a killed bake left behind is cleared here — only
  // ever by the holder of the folder's lock, so never under a live bake's feet.
  const recorded = store.listRuns();
  const runner = await openRunner({ ...options, scratchLabel: `bake ${store.dir}`, storageDir: store.dir, recorded });
  // runs the machine starved last time are redone, and say so (decision 011)
  const starvedBefore = new Map(recorded.filter((r) => r.outcome.kind === 'void' && r.outcome.reason === 'machine-starved').map((r) => [r.id, r]));
  try {
    await runner.prepare([...new Set(pending.map((s) => s.task))], emit);
    await runPool(pending, options.concurrency, async (spec) => {
      emit({ type: 'run-start', runId: spec.id, task: spec.task, agent: options.agents[spec.agentIndex]!.info.id, replay: spec.replay });
      const artifactsDir = store.artifactsTempDir(spec.id);
      const result = await runner.run(spec, artifactsDir, { onStage: (stage) => emit({ type: 'run-stage', runId: spec.id, ...stage }) });
      const earlier = starvedBefore.get(spec.id);
      const record = earlier ? { ...result.record, flags: [...(result.record.flags ?? []), redoneFlag(earlier)] } : result.record;
      // saved once, outside the run: a save that fails part-way is never retried over a moved folder
      store.saveRun(record, result.sessions, result.checks, artifactsDir);
      emit({ type: 'run-end', record, ...(result.error ? { error: result.error } : {}) });
    }, { onHold: (why) => emit({ type: 'pool-hold', why }) });
  } finally {
    await runner.close();
  }
  return { planned: specs.length, alreadyDone: specs.length - pending.length, ran: pending.length, rejected: rejectedTasks(suite, lock) };
}

/** What a redone run says of the attempt it replaces, which the machine starved. */
export function redoneFlag(earlier: RunRecord): string {
  const detail = earlier.outcome.kind === 'void' && earlier.outcome.detail ? `: ${earlier.outcome.detail}` : '';
  const cost = earlier.costUsd !== null && earlier.costUsd > 0 ? `; it cost $${earlier.costUsd.toFixed(4)}, not counted here` : '';
  return `redone: the attempt started ${earlier.startedAt} was void machine-starved${detail}${cost}`;
}

/**
 * The start of a bake of a results folder, local or on a fleet: plans the runs, leaves out those
 * the store has (so the same bake resumes), says so (`plan`), and records the bake's suite and
 * controls in the store (`bakeoff verify` re-grades from there).
 */
export function beginBake(
  options: Pick<BakeOptions, 'suite' | 'lock' | 'agents' | 'runsPerTask' | 'patchMissing' | 'store' | 'selection'>,
  emit: (event: BakeEvent) => void,
): { specs: RunSpec[]; pending: RunSpec[] } {
  const { suite, lock, store } = options;
  const specs = planBake(options);
  const done = store.finishedRunIds();
  const pending = specs.filter((s) => !done.has(s.id));
  emit({ type: 'plan', total: specs.length, alreadyDone: specs.length - pending.length, rejected: rejectedTasks(suite, lock) });
  store.saveControls(suite.controlsDigest, suite.controls);
  const admitted = suite.tasks.filter((t) => lock.tasks[t.id]?.admitted === true).map((t) => t.id);
  store.saveBake({ suiteId: suite.id, suiteHash: suite.hash, suiteDir: path.resolve(suite.dir), controlsDigest: suite.controlsDigest, tasks: admitted });
  return { specs, pending };
}

/** The suite's tasks the lock does not admit, each with why. */
export function rejectedTasks(suite: Suite, lock: SuiteLock): { task: string; reason: string }[] {
  return suite.tasks
    .filter((t) => lock.tasks[t.id]?.admitted !== true)
    .map((t) => {
      const entry = lock.tasks[t.id];
      return { task: t.id, reason: entry && !entry.admitted ? entry.reason : 'not in the lock file' };
    });
}

/**
 * The void record of a run a fleet's coordinator got no result for from any worker (its job
 * failed, or what came back was damaged): the reason in `detail`, the coordinator's runtime.
 */
export function lostRunRecord(options: Pick<RunnerOptions, 'suite' | 'agents' | 'runtime'>, spec: RunSpec, detail: string): RunRecord {
  return voidRunRecord(options, spec, new Date().toISOString(), 'infra-error', detail);
}

/** Every field a graded run records, with what a run that never got to work has. */
function voidRunRecord(
  options: Pick<RunnerOptions, 'suite' | 'agents' | 'runtime'>,
  spec: RunSpec,
  startedAt: string,
  reason: 'setup-failed' | 'infra-error' | 'pass-stopped',
  detail: string,
): RunRecord {
  const { seed, level } = runSeedAndLevel(options.suite);
  const agent = options.agents[spec.agentIndex]!;
  return buildRunRecord(
    { id: spec.id, suite: options.suite, task: spec.task, agent: agent.info, effortCatalog: agent.effortCatalog ?? null, replay: spec.replay, seed, level, runtime: options.runtime, startedAt },
    { kind: 'void', reason, detail: detail.slice(0, 2000) },
  );
}

/** Every run a bake of these agents plans (before leaving out what the store has). */
export function planBake(options: Pick<BakeOptions, 'suite' | 'lock' | 'agents' | 'runsPerTask' | 'patchMissing' | 'selection'>): RunSpec[] {
  const { suite, lock } = options;
  // an agent with work for some tasks only (a predictions file) runs on those, unless told otherwise
  const covers = (spec: RunSpec): boolean => options.patchMissing === 'empty' || (options.agents[spec.agentIndex]!.tasks?.has(spec.task) ?? true);
  const admitted = new Set(suite.tasks.filter((t) => lock.tasks[t.id]?.admitted === true).map((t) => t.id));
  return planRuns({
    suiteHash: suite.hash,
    tasks: selectTasks(suite.tasks.map((t) => t.id), admitted, options.selection).tasks,
    agents: options.agents.map((a) => a.digest),
    runsPerTask: options.runsPerTask ?? suite.controls.runsPerTask,
    seed: runSeedAndLevel(suite).seed,
  }).filter(covers);
}

export interface RunnerOptions {
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly agents: readonly Agent[];
  readonly isolation: Isolation;
  readonly cacheDir: string;
  readonly runtime: Readonly<Record<string, string>>;
  /** Names the scratch root (what owns it). */
  readonly scratchLabel: string;
  /** Where artifacts are written: a full disk there stops the bake instead of voiding the run. */
  readonly storageDir: string;
  /**
   * The runs the results folder already holds (a resumed bake): each pass's agent time budget
   * starts with what they spent, and a pass they stopped (`agentBudget.stopOnError`) stays stopped.
   */
  readonly recorded?: readonly RunRecord[];
}

/** One run's result, before it is stored. */
export interface RunResult {
  readonly record: RunRecord;
  readonly sessions: readonly SessionRow[];
  readonly checks: readonly CheckRow[];
  /** Set when the run is void because the instrument broke. */
  readonly error?: Error;
}

/** What the caller of a run is told while it runs. */
export interface RunWatch {
  /** An order's session or grading starts (progress). */
  readonly onStage?: (stage: RunStage) => void;
  /** A metered model request ended, with its stored row (a fleet's worker reports an attempt's spend as it goes). */
  readonly onRequest?: (order: number, row: RequestRow) => void;
}

/**
 * What runs a bake's runs, one at a time or many at once: the local bake and a queue worker
 * both run every run through it, so a run on a fleet is the very code path of a local run.
 */
export interface Runner {
  /** Sets up the tasks' prepared repos (cached), each at most once per runner. */
  prepare(tasks: readonly string[], emit?: (event: BakeEvent) => void): Promise<void>;
  /**
   * Runs one planned run, its artifacts into `artifactsDir`, in a scratch folder named
   * `scratchName` (default: the run id; a fleet worker names each attempt's own, so that a
   * duplicate attempt of a run never shares one).
   */
  run(spec: RunSpec, artifactsDir: string, watch?: RunWatch, scratchName?: string): Promise<RunResult>;
  close(): Promise<void>;
}

export async function openRunner(options: RunnerOptions): Promise<Runner> {
  const { suite } = options;
  const { seed, level } = runSeedAndLevel(suite);
  const scratch = await freshScratchRoot(options.scratchLabel);
  const workspaceMode = await probeWorkspaceMode(scratch, options.isolation);
  const env = baseEnv();
  const prepared = new Map<string, Promise<{ repo: string } | { error: string }>>();
  const byId = new Map(suite.tasks.map((t) => [t.id, t]));
  const shared: Shared = { env, scratch, seed, level, workspaceMode, passOf: createPasses(suite.controls, options.recorded ?? []), checks: new Map<string, Promise<GeneratedSet>>(), keptChecks: { probes: openProbeCache(options.cacheDir), runtime: options.runtime } };
  const prepareOne = (taskId: string, emit: (event: BakeEvent) => void): Promise<{ repo: string } | { error: string }> => {
    const known = prepared.get(taskId);
    if (known) return known;
    const task = byId.get(taskId)!;
    const made = prepareTask({
      task,
      controls: suite.controls,
      isolation: options.isolation,
      env,
      cacheDir: options.cacheDir,
      onProgress: (progress) => emit({ type: 'setup-progress', task: task.id, progress }),
    }).then((result) => {
      emit({ type: 'prepare', task: task.id, cached: result.ok && result.cached, ok: result.ok, ...(result.ok ? {} : { reason: result.reason }) });
      return result.ok ? { repo: result.repo } : { error: result.reason };
    });
    prepared.set(taskId, made);
    return made;
  };
  return {
    prepare: async (tasks, emit = () => {}) => {
      for (const t of tasks) await prepareOne(t, emit);
    },
    run: async (spec, artifactsDir, watch = {}, scratchName = spec.id) => {
      const task = byId.get(spec.task);
      if (!task) throw new Error(`openRunner: task ${spec.task} is not in suite ${suite.id}`);
      return runOne(options, spec, task, await prepareOne(spec.task, () => {}), shared, { artifactsDir, scratchDir: path.join(shared.scratch, scratchName) }, watch);
    },
    close: () => disposeScratch(scratch),
  };
}

async function runOne(
  options: RunnerOptions,
  spec: RunSpec,
  task: Task,
  prepared: { repo: string } | { error: string },
  shared: Shared,
  dirs: { readonly artifactsDir: string; readonly scratchDir: string },
  watch: RunWatch,
): Promise<RunResult> {
  const { suite } = options;
  const { artifactsDir, scratchDir } = dirs;
  const agent = options.agents[spec.agentIndex]!;
  const startedAt = new Date().toISOString();
  const taskLock = options.lock.tasks[task.id];
  const pass = shared.passOf(agent.info.id, spec.replay);
  if (pass.stoppedBy !== null) {
    return { record: voidRecord(options, spec, startedAt, 'pass-stopped', pass.stoppedBy, shared), sessions: [], checks: [] };
  }
  if ('error' in prepared) {
    return { record: voidRecord(options, spec, startedAt, 'setup-failed', prepared.error, shared), sessions: [], checks: [] };
  }
  try {
    const result = await runTask({
      runId: spec.id,
      suite,
      task,
      lock: taskLock as Extract<typeof taskLock, { admitted: true }>,
      agent,
      replay: spec.replay,
      preparedRepo: prepared.repo,
      isolation: options.isolation,
      env: shared.env,
      budget: pass.budget,
      checksFor: (order) => checksFor(task, order, shared),
      seed: shared.seed,
      level: shared.level,
      scratchDir,
      artifactsDir,
      runtime: { ...options.runtime, sandbox: options.isolation.sandbox.name },
      ...watch,
    });
    if (suite.controls.agentBudget?.stopOnError && pass.stoppedBy === null && stopsPass(result.record.outcome)) pass.stoppedBy = stoppedSentence(result.record);
    return result;
  } catch (error) {
    // the results folder's disk is full or failing: not this run's verdict; the bake stops and resuming redoes the run
    if (isStorageFailure(error, options.storageDir)) throw error;
    return { record: voidRecord(options, spec, startedAt, 'infra-error', (error as Error).message, shared), sessions: [], checks: [], error: error as Error };
  } finally {
    await disposeScratch(scratchDir);
  }
}


/** State the runs of one bake share. */
interface Shared {
  readonly env: Record<string, string>;
  readonly scratch: string;
  readonly seed: number | null;
  readonly level: number | null;
  /** The workspace kind this bake's runs get (`overlay` or `copy`), for void runs that never made one. */
  readonly workspaceMode: string | null;
  /** Each agent's pass (its agent time budget, and whether it stopped), by agent id and replay. */
  readonly passOf: (agentId: string, replay: number) => Pass;
  /** Generated checks by task, order, seed and level (generated once per bake). */
  readonly checks: Map<string, Promise<GeneratedSet>>;
  /** Sets kept on this machine: generated once per machine, not per bake (GeneratedChecksCache). */
  readonly keptChecks: GeneratedChecksCache;
}

/** Runs use one seed and one level: the controls' `seed` (default: the first of `seeds`) and `level`. */
export function runSeedAndLevel(suite: Suite): { seed: number | null; level: number | null } {
  const usesChecks = suite.tasks.some((t) => t.manifest.grading === 'checks');
  if (!usesChecks) return { seed: null, level: null };
  return { seed: suite.controls.seed ?? suite.controls.seeds[0]!, level: suite.controls.level };
}

function checksFor(task: Task, order: Order, shared: Shared): Promise<GeneratedSet> {
  const key = `${task.id}:${order.index}:${shared.seed}:${shared.level}`;
  if (!shared.checks.has(key)) shared.checks.set(key, keptOrGeneratedChecks(shared.keptChecks, task, order, shared.seed ?? 0, shared.level ?? 1));
  return shared.checks.get(key)!;
}

function voidRecord(options: RunnerOptions, spec: RunSpec, startedAt: string, reason: 'setup-failed' | 'infra-error' | 'pass-stopped', detail: string, shared: Shared): RunRecord {
  const runtime = { ...options.runtime, sandbox: options.isolation.sandbox.name, ...(shared.workspaceMode ? { workspace: shared.workspaceMode } : {}) };
  return voidRunRecord({ ...options, runtime }, spec, startedAt, reason, detail);
}
