import path from 'node:path';
import { DEFAULT_SANDBOX, requireTools, sandboxNamed } from '../sandbox/index.js';
import type { RunRecord } from '../types.js';
import { verifyResults, type RunSelection, type RunVerification, type VerifyResult } from '../verify/index.js';
import { notifyVia, type Notify, type NoteEvent } from './events.js';
import { isolationFor } from './isolation-for.js';
import { lockResultsFor } from './lock-results-for.js';
import { cacheDirOf, cwdOf, type Place } from './paths.js';

export interface VerifyRequest extends RecheckRequest {
  /** Re-check only the runs of these tasks (ids as stored; default: every task). */
  readonly tasks?: readonly string[];
  /** Re-check only the runs of these agents (ids as stored; default: every agent). */
  readonly agents?: readonly string[];
}

/** What every re-check of a results folder takes (`verify`, and `publish` before it writes). */
export interface RecheckRequest extends Place {
  /** The results folder. */
  readonly results: string;
  /** Suite folder to re-grade with; default: the folder the runs were baked from. */
  readonly suite?: string;
  /** Runs re-graded at once (default 2). */
  readonly concurrency?: number;
  /** Wait for another process using the results folder to finish, instead of refusing. */
  readonly wait?: boolean;
  /**
   * The sandbox backend tests run in, by name (`sandbox/registry.ts`: `bwrap`, the default, or
   * `unsafe-no-sandbox`, development only). An unknown name is a UserError listing the known ones.
   */
  readonly sandbox?: string;
  readonly onEvent?: (event: VerifyEvent) => void;
}

export type VerifyEvent =
  | NoteEvent
  | { readonly type: 'plan'; readonly total: number }
  /** A task's repo is being set up (from the cache when it can). */
  | { readonly type: 'setup'; readonly task: string }
  | { readonly type: 'run-start'; readonly runId: string; readonly task: string; readonly agent: string; readonly replay: number }
  | { readonly type: 'run-verified'; readonly run: RunVerification };

/**
 * `bakeoff verify`: re-grades every stored change (or those of the tasks and agents asked for)
 * and re-hashes every artifact, holding the results folder's lock. `mismatches` > 0 means the
 * stored results do not re-check.
 */
export async function verify(request: VerifyRequest): Promise<VerifyResult> {
  const notify = notifyVia(request.onEvent);
  const result = await withResultsLocked(request, 'verify', notify, () =>
    reverify(
      request,
      notify,
      (event) => {
        request.onEvent?.(event);
        const run = event.type === 'run-verified' ? event.run : null;
        if (run && run.error !== null) notify.error(`run ${run.id} (${run.task}, ${run.agent}) could not be re-graded: ${run.error}`);
      },
      false,
      { tasks: request.tasks ?? [], agents: request.agents ?? [] },
    ),
  );
  const legacy = result.runs.filter((r) => !r.checksumsRecorded).length;
  if (legacy > 0) notify.note(`${legacy} run${legacy === 1 ? '' : 's'} stored before bakeoff recorded artifact checksums: their artifacts were not checked`);
  return result;
}

/** Runs `work` holding the lock of the request's results folder, as `command`. */
export async function withResultsLocked<T>(request: RecheckRequest, command: string, notify: Notify, work: () => Promise<T>): Promise<T> {
  await requireTools([...sandboxNamed(request.sandbox ?? DEFAULT_SANDBOX).requires, 'git']);
  const dir = path.resolve(cwdOf(request), request.results);
  const resultsLock = await lockResultsFor(dir, { command, create: false, wait: request.wait === true, notes: notify });
  try {
    return await work();
  } finally {
    resultsLock.release();
  }
}

/** The re-check itself; the caller holds the folder's lock. */
export function reverify(
  request: RecheckRequest,
  notify: Notify,
  onEvent?: (event: Exclude<VerifyEvent, NoteEvent>) => void,
  reuseStamp = false,
  select?: RunSelection,
): Promise<VerifyResult> {
  const cwd = cwdOf(request);
  return verifyResults(path.resolve(cwd, request.results), {
    sandbox: request.sandbox ?? DEFAULT_SANDBOX,
    reuseStamp,
    ...(select ? { select } : {}),
    ...(request.suite ? { suiteDir: path.resolve(cwd, request.suite) } : {}),
    isolationFor: (controls) => isolationFor(controls, request.sandbox ?? DEFAULT_SANDBOX, notify),
    cacheDir: cacheDirOf(request),
    concurrency: request.concurrency ?? 2,
    ...(onEvent
      ? {
          onPlan: (total: number) => onEvent({ type: 'plan', total }),
          onSetup: (task: string) => onEvent({ type: 'setup', task }),
          onRunStart: (run: RunRecord) => onEvent({ type: 'run-start', runId: run.id, task: run.task, agent: run.agent.id, replay: run.replay }),
          onRunVerified: (run: RunVerification) => onEvent({ type: 'run-verified', run }),
        }
      : {}),
  });
}
