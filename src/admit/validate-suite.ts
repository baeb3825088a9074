import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { baseEnv, runPool, prepareTask, type GeneratedChecksCache } from '../run/index.js';
import { type Isolation, disposeScratch, freshScratchRoot, type SetupProgress } from '../sandbox/index.js';
import { admitChecksTask, type NotedAdmission } from './admit-checks-task.js';
import { admitTask, dateCheckClock, type AdmitResult } from './admit-task.js';
import { keepStageLogs } from './keep-stage-logs.js';
import { compareLocks, type LockDifference, admissionFromLock, lockFromAdmissions, readLockFile, writeLock, LOCK_FILE, type SuiteLock, renderTasksMd, type Suite } from '../suite/index.js';
import { GoldPatchError } from './workspace-with-gold.js';
import { tamperResistance } from '../grade/index.js';
import { UserError } from '../errors.js';
import { admissionControls, rememberVerdict, verdictKey, type VerdictCache } from './verdict-cache.js';
import { admitAdversarially } from './adversarial.js';
import type { ExploitId } from '../agents/exploits/registry.js';
import type { Agent } from '../agents/index.js';

/**
 * When validate writes the lock and TASKS.md:
 * - `stable` (the default): when there was no lock, when the lock is for another suite hash
 *   (the suite itself changed), or when the verdicts are the lock's; never over a lock of the
 *   same suite whose verdicts differ, or a lock file that cannot be read.
 * - `update` (`--update-lock`): always.
 * - `never` (`--check`): never.
 */
export type LockWrite = 'stable' | 'update' | 'never';

/**
 * How the fresh verdicts relate to the suite's lock file:
 * `created` (there was none), `suite-changed` (it was for another suite hash), `unchanged`,
 * `differs` (same suite hash, other verdicts) or `unreadable` (not a lock bakeoff wrote).
 */
export type LockStatus = 'created' | 'suite-changed' | 'unchanged' | 'differs' | 'unreadable';

export interface LockComparison {
  readonly status: LockStatus;
  /** Per task, what differs from the lock (also listed for `suite-changed`). */
  readonly differences: readonly LockDifference[];
  /** The suite hash the lock was written for, when it could be read. */
  readonly lockedHash?: string;
  /** For `unreadable`: what is wrong with the file. */
  readonly problem?: string;
}

export interface ValidateOptions {
  readonly isolation: Isolation;
  readonly cacheDir: string;
  readonly concurrency: number;
  readonly lockWrite?: LockWrite;
  /**
   * Validate these tasks only (`--task`), keeping every other task's verdict from the lock —
   * allowed when the lock was written under the same controls and no other task changed since.
   */
  readonly tasks?: readonly string[];
  /** Told when a task's checks start, at each stage (`setup`, `baseline`, `gold-1`, …) and when its verdict is in. */
  readonly onPlan?: (total: number, kept: number) => void;
  readonly onTaskStart?: (task: string) => void;
  readonly onTaskStage?: (task: string, stage: string) => void;
  /** Told each second while a task's setup command runs: the command, its time and its last line of output. */
  readonly onSetupProgress?: (task: string, progress: SetupProgress) => void;
  readonly onTaskEnd?: (task: string, admission: NotedAdmission) => void;
  /**
   * Keeps each admission under what it depends on (verdict-cache.ts): a task unchanged since
   * this machine admitted it, on the same prepared repo, controls and runtimes, keeps its
   * admission instead of running its checks again. Absent: every task is checked.
   */
  readonly verdicts?: VerdictCache;
  /** Where the generated check sets admission proves deterministic are kept for the tasks' bakes (run's GeneratedChecksCache); absent: none kept. */
  readonly keptChecks?: GeneratedChecksCache;
  /**
   * Adversarial admission: these exploits of the library, then these hacker agents
   * (createHackerAgent), run on every task the other checks admit, and one graded solved or void
   * rejects it (adversarial.ts). Absent: none run.
   */
  readonly adversarial?: {
    readonly exploits: readonly ExploitId[];
    readonly hackers?: readonly Agent[];
    readonly runtime: Readonly<Record<string, string>>;
  };
}

export interface ValidateResult {
  readonly suite: Suite;
  readonly admissions: ReadonlyMap<string, NotedAdmission>;
  /** Tasks whose admission was kept from an earlier validate on this machine (nothing about them changed). */
  readonly keptVerdicts: readonly string[];
  readonly comparison: LockComparison;
  /** True when the lock and TASKS.md were written. */
  readonly written: boolean;
  readonly lockPath: string;
  readonly tasksMdPath: string;
}

/**
 * Runs the admission checks on every task, compares the verdicts with the suite's lock file,
 * and writes TASKS.md and the lock as {@link LockWrite} says.
 */
export async function validateSuite(suite: Suite, options: ValidateOptions): Promise<ValidateResult> {
  const env = baseEnv();
  const admissions = new Map<string, NotedAdmission>(options.tasks ? await keptAdmissions(suite, options.tasks) : []);
  const keptVerdicts: string[] = [];
  const scratch = await freshScratchRoot(`validate ${process.pid} ${Date.now()}`);
  try {
    const pending = suite.tasks.filter((t) => !admissions.has(t.id));
    options.onPlan?.(suite.tasks.length, suite.tasks.length - pending.length);
    await runPool(pending, options.concurrency, async (task) => {
      options.onTaskStart?.(task.id);
      const { admission: found, kept } = await admitOne(suite, task, { ...options, env, scratch });
      const admission = withoutScratch(found, scratch);
      if (kept) keptVerdicts.push(task.id);
      admissions.set(task.id, admission);
      options.onTaskEnd?.(task.id, admission);
    });
  } finally {
    await disposeScratch(scratch);
  }
  const lock = lockFromAdmissions(suite, admissions);
  const comparison = await compareWithLockFile(suite, lock);
  const mode = options.lockWrite ?? 'stable';
  const written = mode === 'update' || (mode === 'stable' && comparison.status !== 'differs' && comparison.status !== 'unreadable');
  const lockPath = path.join(suite.dir, LOCK_FILE);
  const tasksMdPath = path.join(suite.dir, 'TASKS.md');
  if (written) {
    await writeLock(suite.dir, lock);
    await writeFile(tasksMdPath, renderTasksMd(suite, admissions, await resistanceOf(suite, admissions)));
  }
  return { suite, admissions, keptVerdicts: suite.tasks.map((t) => t.id).filter((id) => keptVerdicts.includes(id)), comparison, written, lockPath, tasksMdPath };
}

/** Each admitted task's tamper resistance (TASKS.md), for the tasks graded by hidden tests. */
async function resistanceOf(suite: Suite, admissions: ReadonlyMap<string, NotedAdmission>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const task of suite.tasks) {
    const a = admissions.get(task.id);
    if (a?.admitted && task.manifest.grading !== 'checks') out.set(task.id, (await tamperResistance(task, a.orders)).text);
  }
  return out;
}

/**
 * For `--task`: the verdicts of every task not named, taken from the lock, which must have been
 * written under these controls with each of those tasks as it is now (its `taskHash`).
 */
async function keptAdmissions(suite: Suite, selected: readonly string[]): Promise<Map<string, NotedAdmission>> {
  const known = new Set(suite.tasks.map((t) => t.id));
  const unknown = selected.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new UserError(`--task: no task ${unknown.map((u) => JSON.stringify(u)).join(', ')} in ${suite.dir} (tasks: ${[...known].join(', ')})`);
  const whole = `validate the whole suite (without --task)`;
  const state = await readLockFile(suite.dir);
  if (state.kind !== 'ok') throw new UserError(`--task: ${state.file} ${state.kind === 'missing' ? 'does not exist' : 'cannot be read'}; ${whole} first`);
  const { lock } = state;
  if (lock.suite.id !== suite.id || lock.suite.controlsDigest !== suite.controlsDigest) {
    throw new UserError(`--task: ${state.file} was written for ${lock.suite.controlsDigest === undefined ? 'an older bakeoff (no controls digest)' : 'other controls or another suite'}; ${whole}`);
  }
  const kept = new Map<string, NotedAdmission>();
  const changed: string[] = [];
  for (const task of suite.tasks) {
    if (selected.includes(task.id)) continue;
    const entry = lock.tasks[task.id];
    if (!entry || entry.taskHash !== task.hash) changed.push(task.id);
    else kept.set(task.id, admissionFromLock(entry));
  }
  if (changed.length > 0) {
    throw new UserError(`--task: ${changed.join(', ')} also changed since ${state.file} was written (or ${changed.length === 1 ? 'is' : 'are'} not in it): add --task ${changed.join(' --task ')}, or ${whole}`);
  }
  return kept;
}

async function compareWithLockFile(suite: Suite, lock: SuiteLock): Promise<LockComparison> {
  const before = await readLockFile(suite.dir);
  if (before.kind === 'missing') return { status: 'created', differences: [] };
  if (before.kind === 'invalid') return { status: 'unreadable', differences: [], problem: before.error.message };
  const differences = compareLocks(before.lock, lock);
  const status = before.lock.suite.hash !== suite.hash ? 'suite-changed' : differences.length ? 'differs' : 'unchanged';
  return { status, differences, lockedHash: before.lock.suite.hash };
}

/**
 * Reasons may name files in validate's scratch folder, which is gone once validate ends and is
 * named differently every time; `<scratch>` stands in for it, so the lock reads the same.
 */
function withoutScratch(admission: NotedAdmission, scratch: string): NotedAdmission {
  return admission.admitted ? admission : { ...admission, reason: admission.reason.replaceAll(scratch, '<scratch>') };
}

async function admitOne(
  suite: Suite,
  task: Suite['tasks'][number],
  options: ValidateOptions & { env: Record<string, string>; scratch: string },
): Promise<{ readonly admission: NotedAdmission; readonly kept: boolean }> {
  options.onTaskStage?.(task.id, 'setup');
  const onSetupProgress = options.onSetupProgress;
  const prepared = await prepareTask({
    task, controls: suite.controls, isolation: options.isolation, env: options.env, cacheDir: options.cacheDir,
    ...(onSetupProgress ? { onProgress: (progress: SetupProgress) => onSetupProgress(task.id, progress) } : {}),
  });
  if (!prepared.ok) return { admission: { admitted: false, reason: prepared.reason }, kept: false };
  const check = () => checkTask(suite, task, prepared.repo, options);
  if (!options.verdicts) return { admission: await check(), kept: false };
  let checked = false;
  const exploits = options.adversarial?.exploits ?? null;
  // a hacker is the same only on the same model API (a scripted model is not the vendor's)
  const hackers = options.adversarial?.hackers?.map((h) => `${h.info.id} ${h.digest} ${options.adversarial?.runtime.upstream ?? ''}`) ?? [];
  const controls = admissionControls(suite, exploits !== null || hackers.length > 0);
  const key = verdictKey(controls, task, {
    runtime: options.verdicts.runtime, code: options.verdicts.code, sandbox: options.isolation.sandbox.name, preparedRepo: prepared.repo,
    exploits, hackers,
    clockNotMoved: (await dateCheckClock(task.manifest.language, options.env)).notMoved ?? null,
  });
  const admission = await rememberVerdict(options.verdicts, controls, task, key, () => ((checked = true), check()));
  if (!checked) options.onTaskStage?.(task.id, 'kept');
  return { admission, kept: !checked };
}

/** Every admission stage of `task` on its prepared repo. */
async function checkTask(
  suite: Suite,
  task: Suite['tasks'][number],
  preparedRepo: string,
  options: ValidateOptions & { env: Record<string, string>; scratch: string },
): Promise<NotedAdmission> {
  const scratchDir = path.join(options.scratch, task.id);
  try {
    const admitOptions = {
      task,
      preparedRepo,
      isolation: options.isolation,
      env: options.env,
      testTimeoutMs: suite.controls.testWallClockSec * 1000,
      outputBytes: suite.controls.outputMb * 1024 * 1024,
      scratchDir,
      onStage: (stage: string) => options.onTaskStage?.(task.id, stage),
    };
    const admission = task.manifest.grading === 'checks'
      ? await admitChecksTask({ ...admitOptions, controls: suite.controls, ...(options.keptChecks ? { keptChecks: options.keptChecks } : {}) })
      : await withKeptLogs(await admitTask(admitOptions), { cacheDir: options.cacheDir, suiteId: suite.id, taskId: task.id });
    if (!options.adversarial || !admission.admitted) return admission;
    return await admitAdversarially({
      suite, task, admission, exploits: options.adversarial.exploits, runtime: options.adversarial.runtime,
      ...(options.adversarial.hackers ? { hackers: options.adversarial.hackers } : {}),
      evidenceDir: path.join(options.cacheDir, 'validate-logs', suite.id, task.id, 'hackers'),
      isolation: options.isolation, cacheDir: options.cacheDir, scratchDir: path.join(scratchDir, 'adversarial'), onStage: admitOptions.onStage,
    });
  } catch (error) {
    if (error instanceof GoldPatchError) return { admitted: false, reason: error.message };
    throw error;
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

/** The admission without its scratch logs; a rejection names where they were kept. */
async function withKeptLogs(result: AdmitResult, where: { cacheDir: string; suiteId: string; taskId: string }): Promise<NotedAdmission> {
  const { stageLogs, ...admission } = result;
  const logs = await keepStageLogs({ ...where, logs: admission.admitted ? [] : (stageLogs ?? []) });
  return logs.length > 0 ? { ...admission, logs } : admission;
}
