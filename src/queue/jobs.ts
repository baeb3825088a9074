/**
 * What travels through the fleet's Redis: one BullMQ queue whose job ids are the
 * content-addressed run ids, the suite bundles by hash, each run's attempts and artifacts. No
 * secret ever does: API keys stay in each worker's environment.
 */
import type { CheckRow, RequestRow, SessionRow } from '../store/index.js';
import type { RunRecord } from '../types.js';

/** BullMQ's key prefix and queue name: keys are `bakeoff:runs:…`. */
export const PREFIX = 'bakeoff';
export const QUEUE = 'runs';

/** Our own keys, beside BullMQ's. */
export const keys = {
  /** The suite bundle (a gzipped tarball of the suite folder with its lock), by suite hash. */
  bundle: (suiteHash: string) => `${PREFIX}:fleet:bundle:${suiteHash}`,
  /** The bake the queue carries now: which suite, whose coordinator (JSON `FleetBake`). */
  bake: `${PREFIX}:fleet:bake`,
  /** Each attempt at a run, in the order they started (a list of JSON `AttemptStart`). */
  attempts: (runId: string) => `${PREFIX}:fleet:attempts:${runId}`,
  /**
   * What an attempt's model requests cost, one JSON `SpentRequest` per request as it ended, pushed
   * by its worker while the run goes on: an attempt cut short by a lost worker keeps its cost up
   * to its last finished request. Read (for abandoned attempts) and deleted when the run is stored.
   */
  spent: (runId: string, attempt: number) => `${PREFIX}:fleet:spent:${runId}:${attempt}`,
  /** An attempt's artifacts (a gzipped tarball), until the coordinator has stored them. */
  artifacts: (runId: string, attempt: number) => `${PREFIX}:fleet:artifacts:${runId}:${attempt}`,
  /** Workers' announcements: name → JSON `WorkerInfo` (with a time to live, renewed). */
  worker: (name: string) => `${PREFIX}:fleet:worker:${name}`,
};

/** How long a worker's announcement and an attempt's artifacts live in Redis unclaimed. */
export const WORKER_TTL_SEC = 30;
export const ARTIFACTS_TTL_SEC = 7 * 24 * 3600;

export interface FleetBake {
  readonly suiteId: string;
  readonly suiteHash: string;
  readonly bakeoffVersion: string;
  /** `host:pid` of the live coordinator; null once it finished. */
  readonly coordinator: string | null;
  readonly startedAt: string;
}

/** One job = one planned run, with everything a worker needs to run it but the bundle. */
export interface RunJob {
  readonly schemaVersion: 1;
  readonly bakeoffVersion: string;
  readonly suiteId: string;
  readonly suiteHash: string;
  readonly runId: string;
  readonly task: string;
  readonly replay: number;
  /** The agent spec as the coordinator was given it, and the digest it resolved to there. */
  readonly agentSpec: string;
  readonly agentDigest: string;
  readonly agentId: string;
  /** Options a worker resolves the agent with (paths absolute, as on the coordinator). */
  readonly agentOptions: {
    readonly cwd: string;
    readonly upstream?: string;
    readonly auth?: 'api' | 'subscription';
    readonly prices?: string;
    readonly upstreamIdleTimeoutSec?: number;
    readonly traceNetwork?: boolean;
  };
  /** When the coordinator enqueued it (ms since the epoch): the coordinator's overhead is measured from here. */
  readonly enqueuedAt: number;
  /** `--upstream-concurrency`: model sessions at once per model API over the whole fleet; absent: no cap. */
  readonly upstreamConcurrency?: number;
}

/** One start of a run; its number is its place in the run's list of starts (from 1). */
export interface AttemptStart {
  readonly worker: string;
  readonly startedAt: string;
}

/** One finished model request of an attempt: its tokens and its cost as priced then (no content, no header). */
export type SpentRequest = Pick<RequestRow, 'seq' | 'model' | 'input' | 'cacheRead' | 'cacheWrite' | 'output' | 'reasoning' | 'costUsd'> & {
  /** The order whose session made it. */
  readonly order: number;
};

/** What a worker hands back for a job. */
export type RunJobResult =
  | {
      readonly kind: 'run';
      readonly attempt: number;
      readonly worker: string;
      readonly record: RunRecord;
      readonly sessions: readonly SessionRow[];
      readonly checks: readonly CheckRow[];
      readonly artifacts: { readonly key: string; readonly sha256: string; readonly bytes: number };
      /** The instrument broke (the run is void): what broke. */
      readonly error?: string;
    }
  /** The worker could not run it (the bundle does not match its hash, the agent resolved differently): the run is void. */
  | { readonly kind: 'void'; readonly attempt: number; readonly worker: string; readonly detail: string };

export interface WorkerInfo {
  readonly name: string;
  readonly host: string;
  readonly pid: number;
  readonly bakeoffVersion: string;
  readonly concurrency: number;
  readonly startedAt: string;
  /** Run ids it is working on now. */
  readonly active: readonly string[];
}
