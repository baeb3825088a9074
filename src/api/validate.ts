import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { validateSuite, type LockWrite, type NotedAdmission, type ValidateResult } from '../admit/index.js';
import { EXPLOIT_IDS } from '../agents/exploits/registry.js';
import { UserError } from '../errors.js';
import { runtimeVersions, toolchainsOf } from '../run/index.js';
import { DEFAULT_SANDBOX, requireTools, sandboxNamed, type SetupProgress } from '../sandbox/index.js';
import { isDraftPrompt, loadSuite, LOCK_FILE, type OrderAdmission, type Suite } from '../suite/index.js';
import { codeDigest, openProbeCache } from '../util/index.js';
import { BAKEOFF_VERSION } from '../version.js';
import { notifyVia, type NoteEvent } from './events.js';
import { isolationFor } from './isolation-for.js';
import { cacheDirOf, cwdOf, envOf, type Place } from './paths.js';
import { addObservedToDrafts } from './task-from-commit.js';
import { resolveHackers } from './resolve-hackers.js';

export interface ValidateRequest extends Place {
  /** The suite folder. */
  readonly suite: string;
  /** Tasks checked at once (default 2). */
  readonly concurrency?: number;
  /** `stable` (default: never over a lock of the same suite whose verdicts differ), `update`, or `never` (a check: write nothing). */
  readonly lockWrite?: LockWrite;
  /** Validate these tasks only; the others keep their verdicts from the lock. */
  readonly tasks?: readonly string[];
  /**
   * The sandbox backend tests run in, by name (`sandbox/registry.ts`: `bwrap`, the default, or
   * `unsafe-no-sandbox`, development only). An unknown name is a UserError listing the known ones.
   */
  readonly sandbox?: string;
  /**
   * Run every task's checks, even for a task this machine admitted before under the same task
   * hash, controls, prepared repo, sandbox and runtimes (whose admission is kept by default).
   */
  readonly recheck?: boolean;
  /**
   * Adversarial admission: run the exploit library on every admitted task (admit/adversarial.ts).
   * Absent: the suite's `controls.admission.adversarial` (default false). Refused without the sandbox.
   */
  readonly adversarial?: boolean;
  /**
   * Hacker agents (`--hacker <spec>`, any agent spec `run --agent` takes): after the exploits,
   * each runs once on every task adversarial admission reaches, told the shipped hacker prompt
   * (admit/hacker-prompt.md) before the task's, and one graded solved or void rejects the task,
   * its run folder kept as evidence. Needs adversarial admission on: refused otherwise.
   */
  readonly hackers?: readonly string[];
  /** Where model hackers' requests go: `vendor` (default), `openrouter`, a base URL, `scripted:<script>`. */
  readonly upstream?: string;
  /** A prices file overriding the catalog's list prices (model hackers' cost). */
  readonly prices?: string;
  /**
   * Tasks whose draft prompts get what their admission observed on the commit's parent (the
   * fail-to-pass tests and how each failed; `task from-commit`, `task mine --add`). When one was
   * rewritten the suite changed: the lock and TASKS.md are put back as they were and the suite is
   * validated again (quickly: admissions are kept by the admission hash, of which no prompt is
   * part), after a `validate-again` event.
   */
  readonly observeDrafts?: readonly string[];
  readonly onEvent?: (event: ValidateEvent) => void;
}

export type ValidateEvent =
  | NoteEvent
  /** How many tasks the suite has and how many keep their verdict from the lock (`--task`). */
  | { readonly type: 'plan'; readonly total: number; readonly kept: number }
  | { readonly type: 'task-start'; readonly task: string }
  /** A stage of a task's checks: `setup`, `baseline`, `baseline-2`, `gold-1`, … */
  | { readonly type: 'task-stage'; readonly task: string; readonly stage: string }
  | { readonly type: 'setup-progress'; readonly task: string; readonly progress: SetupProgress }
  | { readonly type: 'task-end'; readonly task: string; readonly admission: NotedAdmission }
  /** `observeDrafts` rewrote these prompt files: the suite is validated again (its events follow, from `plan`). */
  | { readonly type: 'validate-again'; readonly prompts: readonly string[] };

/** One task's verdict, counted. */
export type TaskVerdict =
  | { readonly id: string; readonly admitted: true; readonly failToPass: number; readonly passToPass: number; readonly checks: number; readonly notes: readonly string[] }
  | {
      readonly id: string; readonly admitted: false; readonly reason: string; readonly notes: readonly string[]; readonly logs: readonly string[];
      /** The run folders of the hacker runs that rejected the task, kept under the cache folder (transcript, change.patch, run.json). */
      readonly evidence?: readonly string[];
    };

export interface ValidateOutcome extends ValidateResult {
  readonly tasks: readonly TaskVerdict[];
  readonly rejected: number;
  /**
   * False when a task is rejected, when the verdicts differ from the lock of the same suite and
   * were not written, or — with `lockWrite: 'never'` — on any difference from the lock.
   */
  readonly ok: boolean;
}

/**
 * `bakeoff validate`: the admission checks, the suite hash, TASKS.md and the lock file; with
 * `observeDrafts`, the drafts of those tasks completed from their admission, then validated again.
 */
export async function validate(request: ValidateRequest): Promise<ValidateOutcome> {
  const drafts = request.observeDrafts ?? [];
  if (drafts.length === 0) return validateOnce(request);
  const suite = path.resolve(cwdOf(request), request.suite);
  const saved = await readValidateOutputs(suite);
  const first = await validateOnce(request);
  const prompts = await addObservedToDrafts({ suite, tasks: drafts, admissions: first.admissions });
  if (prompts.length === 0) return first;
  await restoreValidateOutputs(saved);
  request.onEvent?.({ type: 'validate-again', prompts });
  return validateOnce(request);
}

/** Files validate writes into a suite, as they were (null: absent). */
type SavedOutputs = ReadonlyMap<string, string | null>;

async function readValidateOutputs(suiteDir: string): Promise<SavedOutputs> {
  const files = new Map<string, string | null>();
  for (const name of [LOCK_FILE, 'TASKS.md']) files.set(path.join(suiteDir, name), await readFile(path.join(suiteDir, name), 'utf8').catch(() => null));
  return files;
}

async function restoreValidateOutputs(saved: SavedOutputs): Promise<void> {
  for (const [file, text] of saved) {
    if (text === null) await rm(file, { force: true });
    else await writeFile(file, text);
  }
}

async function validateOnce(request: ValidateRequest): Promise<ValidateOutcome> {
  const notify = notifyVia(request.onEvent);
  await requireTools([...new Set(['bwrap', 'faketime', 'git', ...sandboxNamed(request.sandbox ?? DEFAULT_SANDBOX).requires])]);
  const suite = await loadSuite(path.resolve(cwdOf(request), request.suite));
  for (const file of draftPrompts(suite)) notify.note(`${file} is a draft bakeoff wrote: rewrite it as the owner would state the problem and delete its first line (publish refuses drafts)`);
  const lockWrite = request.lockWrite ?? 'stable';
  const cacheDir = cacheDirOf(request);
  const probes = openProbeCache(cacheDir);
  // the runtimes a kept admission must match are asked while the sandbox is checked
  const runtime = runtimeVersions(BAKEOFF_VERSION, toolchainsOf(suite.tasks));
  runtime.catch(() => {});
  const backend = request.sandbox ?? DEFAULT_SANDBOX;
  const adversarial = request.adversarial ?? suite.controls.admission?.adversarial ?? false;
  if (adversarial && !sandboxNamed(backend).isolates) {
    throw new UserError(`adversarial admission needs an isolating sandbox: the exploits it runs rewrite files and signal processes, and --sandbox ${backend} would let them act on this machine; use the default sandbox, or validate with --no-adversarial${suite.controls.admission?.adversarial ? ` (${path.join(suite.dir, 'suite.yaml')} controls.admission.adversarial is true)` : ''}`);
  }
  const hackerSpecs = request.hackers ?? [];
  if (hackerSpecs.length > 0 && !adversarial) {
    throw new UserError(`--hacker adds agents to adversarial admission, which is off${request.adversarial === false ? ' (--no-adversarial)' : ''}: give --adversarial with --hacker, or set controls.admission.adversarial: true in ${path.join(suite.dir, 'suite.yaml')}`);
  }
  if (hackerSpecs.includes('gold')) {
    throw new UserError('--hacker gold: the gold agent applies the reference fix, which every admitted task grades solved; a hacker is an agent told to make the tests pass without fixing the problem (a model agent, or a command: or patch: agent of your own)');
  }
  if (hackerSpecs.length === 0 && (request.upstream !== undefined || request.prices !== undefined)) {
    throw new UserError(`${request.upstream !== undefined ? '--upstream' : '--prices'} is for the model agents of --hacker, and no --hacker was given`);
  }
  const isolation = await isolationFor(suite.controls, backend, notify, probes);
  const hackers = hackerSpecs.length > 0
    ? await resolveHackers(suite, { specs: hackerSpecs, cwd: cwdOf(request), env: envOf(request), cacheDir, probes, ...(request.upstream !== undefined ? { upstream: request.upstream } : {}), ...(request.prices !== undefined ? { prices: request.prices } : {}) })
    : null;
  let result: ValidateResult;
  try {
    result = await validateSuite(suite, {
      isolation,
      cacheDir,
      ...(request.recheck ? {} : { verdicts: { probes, runtime: await runtime, code: await codeDigest() } }),
      keptChecks: { probes, runtime: await runtime },
      ...(adversarial ? { adversarial: { exploits: EXPLOIT_IDS, ...(hackers ? { hackers: hackers.agents } : {}), runtime: { ...(await runtime), ...hackers?.runtime } } } : {}),
      concurrency: request.concurrency ?? 2,
      lockWrite,
      ...(request.tasks && request.tasks.length > 0 ? { tasks: request.tasks } : {}),
      onPlan: (total, kept) => request.onEvent?.({ type: 'plan', total, kept }),
      onTaskStart: (task) => request.onEvent?.({ type: 'task-start', task }),
      onTaskStage: (task, stage) => request.onEvent?.({ type: 'task-stage', task, stage }),
      onSetupProgress: (task, progress) => request.onEvent?.({ type: 'setup-progress', task, progress }),
      onTaskEnd: (task, admission) => request.onEvent?.({ type: 'task-end', task, admission }),
    });
  } finally {
    await hackers?.close();
  }
  const tasks = result.suite.tasks.map((t): TaskVerdict => {
    const a = result.admissions.get(t.id)!;
    const notes = a.notes ?? [];
    if (!a.admitted) return { id: t.id, admitted: false, reason: a.reason, notes, logs: a.logs ?? [], evidence: a.evidence ?? [] };
    const orders = a.orders;
    const sum = (count: (o: OrderAdmission) => number): number => orders.reduce((n, o) => n + count(o), 0);
    return { id: t.id, admitted: true, failToPass: sum((o) => o.failToPass.length), passToPass: sum((o) => o.passToPass.length), checks: sum((o) => o.checkCount ?? 0), notes };
  });
  const rejected = tasks.filter((t) => !t.admitted).length;
  const { status } = result.comparison;
  const unwrittenChange = !result.written && (status === 'differs' || status === 'unreadable');
  const checkFailed = lockWrite === 'never' && status !== 'unchanged';
  return { ...result, tasks, rejected, ok: rejected === 0 && !unwrittenChange && !checkFailed };
}

/** The prompt files of a suite that still carry the draft marker (see suite/draft-prompt.ts). */
export function draftPrompts(suite: Suite): string[] {
  return suite.tasks.flatMap((t) => t.orders.filter((o) => isDraftPrompt(o.prompt)).map((o) => o.promptPath));
}
