import type { RunResult } from '../run/index.js';
import type { RequestRow } from '../store/index.js';
import type { RunJob } from './jobs.js';

/*
 * What a fleet worker is told, does and reports (`work.ts` runs it).
 */

/** Where a job's run happens on this worker. */
export interface JobPlace {
  /** The suite, unpacked from the bundle the job signs. */
  readonly bundleDir: string;
  /** The agent specs' files, unpacked from their signed tarball; null when the specs name none. */
  readonly filesDir: string | null;
  readonly artifactsDir: string;
  /** A scratch folder name of this attempt alone: a duplicate attempt of the same run never shares one. */
  readonly scratchName: string;
}

/** What a worker's owner does with a job: run it (the local run's code path) or say why it cannot. */
export type ExecuteJob = (
  job: RunJob,
  place: JobPlace,
  watch: { onStage(stage: string): void; onRequest(order: number, row: RequestRow): void },
) => Promise<{ readonly kind: 'run'; readonly result: RunResult } | { readonly kind: 'void'; readonly detail: string }>;

export type WorkerEvent =
  | { readonly type: 'ready'; readonly name: string; readonly concurrency: number; readonly upstreams: readonly string[] }
  | { readonly type: 'job-start'; readonly runId: string; readonly task: string; readonly agent: string; readonly replay: number; readonly attempt: number }
  | { readonly type: 'job-end'; readonly runId: string; readonly verdict: string }
  /** A job this worker will not run (unsigned, forged, a foreign upstream, a bundle not the signed one): nothing of it ran. */
  | { readonly type: 'job-refused'; readonly runId: string; readonly reason: string }
  /** An attempt the queue no longer gives its run to (cleared, or leased to another attempt): its result is not handed back. */
  | { readonly type: 'job-superseded'; readonly runId: string; readonly attempt: number }
  | { readonly type: 'stopping'; readonly running: number; readonly graceSec: number }
  | { readonly type: 'handed-back'; readonly runId: string; readonly attempt: number };

/** What a graceful stop came to. */
export interface StopResult {
  /** Runs that finished (and were handed back as runs) after the stop began. */
  readonly finished: number;
  /** Runs still going when the grace period ended: back in the queue, unrecorded, for another worker. */
  readonly handedBack: readonly string[];
}

export interface RunningWorker {
  /**
   * A graceful stop: takes no more jobs, lets the running runs finish within `graceMs`, then hands
   * the rest back to the queue unrecorded (they run again elsewhere, at once) — their attempts
   * are abandoned, and nothing they do from then on is handed back. The caller then kills what
   * still runs (util's `stopEverything`) and waits for `stopped`.
   */
  stop(graceMs: number): Promise<StopResult>;
  /** Stops taking jobs; `force` abandons the running ones (they come back to the queue after their lease). */
  close(force?: boolean): Promise<void>;
  /** Settles when the worker stopped: on its own (refusing a job of another bakeoff version: rejects) or closed. */
  readonly stopped: Promise<void>;
}

