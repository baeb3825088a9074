/**
 * What travels through the fleet's Redis: one BullMQ queue whose job ids are the
 * content-addressed run ids, the suite bundles by hash, each run's attempts and artifacts. No
 * secret ever does: API keys stay in each worker's environment, the fleet secret on the
 * coordinator and the workers. Jobs, results, attempt starts and spent requests travel sealed
 * (`seal.ts`); bundles by the sha256 a sealed job names.
 */
import type { CheckRow, RequestRow, SessionRow } from '../store/index.js';
import type { RunRecord } from '../types.js';

/** BullMQ's key prefix and queue name: keys are `bakeoff:runs:…`. */
export const PREFIX = 'bakeoff';
export const QUEUE = 'runs';

/** Our own keys, beside BullMQ's. */
export const keys = {
  /** The suite bundle (a gzipped tarball of the suite folder with its lock), by the sha256 of its bytes. */
  bundle: (sha: string) => `${PREFIX}:fleet:bundle:${sha}`,
  /** The files the bake's agent specs name (`command:` scripts, `patch:` files, a replay or prices file), by the tarball's sha256. */
  files: (sha: string) => `${PREFIX}:fleet:files:${sha}`,
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
  /** BullMQ's lock of a job (its holder's token): an attempt is registered only by the lock's holder. */
  lock: (runId: string) => `${PREFIX}:${QUEUE}:${runId}:lock`,
};

/** How long a worker's announcement and an attempt's artifacts live in Redis unclaimed. */
export const WORKER_TTL_SEC = 30;
export const ARTIFACTS_TTL_SEC = 7 * 24 * 3600;
/** Bundles live this long while a bake goes on (each coordinator heartbeat renews it), and {@link BUNDLE_AFTER_SEC} once it ended. */
export const BUNDLE_TTL_SEC = 7 * 24 * 3600;
export const BUNDLE_AFTER_SEC = 3600;

export interface FleetBake {
  readonly suiteId: string;
  readonly suiteHash: string;
  readonly bakeoffVersion: string;
  /** `host:pid` of the live coordinator; null once it finished. */
  readonly coordinator: string | null;
  /** The live coordinator's claim token: only its holder renews (or re-creates) the claim. */
  readonly claim?: string;
  readonly startedAt: string;
}

/** The files of a bake's agent specs as a worker gets them: a tarball by its sha256, and the path each came from. */
export interface AgentFiles {
  readonly sha256: string;
  /** The absolute path a spec names (on the coordinator) → the file's name in the tarball. */
  readonly paths: Readonly<Record<string, string>>;
}

/**
 * One job = one planned run, with everything a worker needs to run it but the bundles. A job's
 * BullMQ data is the job sealed with the fleet secret ({@link Sealed}); a worker runs nothing
 * whose seal does not open.
 */
export interface RunJob {
  readonly schemaVersion: 2;
  readonly bakeoffVersion: string;
  readonly suiteId: string;
  readonly suiteHash: string;
  /** The sha256 of the suite bundle's bytes the coordinator put in Redis: a worker uses no other. */
  readonly bundleSha256: string;
  /** The files the agent specs name, when they name any: a worker reads these, never its own disk. */
  readonly files?: AgentFiles;
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

/**
 * One start of a run (sealed in the run's list of starts); its number is its place in the list
 * (from 1). Only the holder of the job's lease can add it, so the last start is the attempt the
 * queue gives the run to.
 */
export interface AttemptStart {
  readonly worker: string;
  readonly startedAt: string;
  /** Random, per attempt: the result it hands back carries it (fencing). */
  readonly token: string;
}

/** One finished model request of an attempt: its tokens and its cost as priced then (no content, no header). */
export type SpentRequest = Pick<RequestRow, 'seq' | 'model' | 'input' | 'cacheRead' | 'cacheWrite' | 'output' | 'reasoning' | 'costUsd'> & {
  /** The order whose session made it. */
  readonly order: number;
};

/** What a worker hands back for a job (sealed, as the job's return value). */
export type RunJobResult =
  | {
      readonly kind: 'run';
      readonly attempt: number;
      /** The attempt's token: the coordinator records a result only when it is the run's current attempt's. */
      readonly token: string;
      readonly worker: string;
      readonly record: RunRecord;
      readonly sessions: readonly SessionRow[];
      readonly checks: readonly CheckRow[];
      readonly artifacts: { readonly key: string; readonly sha256: string; readonly bytes: number };
      /** The instrument broke (the run is void): what broke. */
      readonly error?: string;
    }
  /** The worker could not run it (the bundle does not match its hash, the agent resolved differently): the run is void. */
  | { readonly kind: 'void'; readonly attempt: number; readonly token: string; readonly worker: string; readonly detail: string };

/** The start of a BullMQ failure reason a worker gives a job it refuses: the coordinator stores no run for it. */
export const REFUSED = 'refused by worker ';

export interface WorkerInfo {
  readonly name: string;
  readonly host: string;
  readonly pid: number;
  readonly bakeoffVersion: string;
  readonly concurrency: number;
  readonly startedAt: string;
  /** Run ids it is working on now. */
  readonly active: readonly string[];
  /** Set once a graceful stop began: it takes no new run. */
  readonly stopping?: true;
}
