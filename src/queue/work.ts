import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { DelayedError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { InfraError } from '../errors.js';
import type { RunResult } from '../run/index.js';
import type { RequestRow } from '../store/index.js';
import { BAKEOFF_VERSION } from '../version.js';
import { connectQueue, type LinkNotes, type QueueAddress } from './connection.js';
import { ARTIFACTS_TTL_SEC, keys, PREFIX, QUEUE, WORKER_TTL_SEC, type AttemptStart, type FleetBake, type RunJob, type RunJobResult, type SpentRequest, type WorkerInfo } from './jobs.js';
import { packFolder, unpackFolder } from './tarball.js';
import { sha256 } from '../util/index.js';

/** What a worker's owner does with a job: run it (the local run's code path) or say why it cannot. */
export type ExecuteJob = (
  job: RunJob,
  bundleDir: string,
  artifactsDir: string,
  watch: { onStage(stage: string): void; onRequest(order: number, row: RequestRow): void },
) => Promise<{ readonly kind: 'run'; readonly result: RunResult } | { readonly kind: 'void'; readonly detail: string }>;

export interface WorkOptions {
  readonly address: QueueAddress;
  readonly name: string;
  /** Runs at once on this machine. */
  readonly concurrency: number;
  /**
   * Seconds a job's lease lasts without renewal: a lost worker's runs go back to the queue after
   * about one to two leases (BullMQ's lock duration and stalled-job check).
   */
  readonly leaseSec: number;
  /** Where bundles are unpacked and artifacts staged. */
  readonly cacheDir: string;
  readonly execute: ExecuteJob;
  readonly notes: LinkNotes & { error(message: string): void };
  readonly onEvent?: (event: WorkerEvent) => void;
}

export type WorkerEvent =
  | { readonly type: 'ready'; readonly name: string; readonly concurrency: number }
  | { readonly type: 'job-start'; readonly runId: string; readonly task: string; readonly agent: string; readonly replay: number; readonly attempt: number }
  | { readonly type: 'job-end'; readonly runId: string; readonly verdict: string };

export interface RunningWorker {
  /** Stops taking jobs; `force` abandons the running ones (they come back to the queue after their lease). */
  close(force?: boolean): Promise<void>;
  /** Settles when the worker stopped: on its own (refusing a job of another bakeoff version: rejects) or closed. */
  readonly stopped: Promise<void>;
}

/**
 * `bakeoff worker`: takes run jobs from the fleet's queue, `concurrency` at a time, and hands back
 * each run's record, sessions, checks and artifacts (with their checksum). It never writes a
 * results folder; the coordinator does. Each attempt is announced before it starts, so one cut
 * short by a lost worker is counted (and shown) when another worker's attempt is recorded.
 */
export async function startWorker(options: WorkOptions): Promise<RunningWorker> {
  const { notes } = options;
  const redis = await connectQueue(options.address, notes);
  await refuseOtherVersion(redis, options.address.url);
  const blocking = await connectQueue(options.address, { note: () => {} }).catch((error: unknown) => {
    redis.disconnect();
    throw error;
  });
  const active = new Set<string>();
  const startedAt = new Date().toISOString();
  const announce = async () => {
    const info: WorkerInfo = { name: options.name, host: hostname(), pid: process.pid, bakeoffVersion: BAKEOFF_VERSION, concurrency: options.concurrency, startedAt, active: [...active] };
    await redis.set(keys.worker(options.name), JSON.stringify(info), 'EX', WORKER_TTL_SEC);
  };
  await announce();
  const heartbeat = setInterval(() => void announce().catch(() => {}), (WORKER_TTL_SEC * 1000) / 3);
  const bundles = new Map<string, Promise<string>>();
  let refusal: Error | null = null;
  let worker: Worker<RunJob, RunJobResult> | undefined;

  const processJob = async (job: Job<RunJob, RunJobResult>, token?: string): Promise<RunJobResult> => {
    const data = job.data;
    if (data.bakeoffVersion !== BAKEOFF_VERSION) {
      // not ours to run: back to the queue for a worker of the coordinator's version, and this one stops
      refusal = new InfraError(`worker ${options.name} runs bakeoff ${BAKEOFF_VERSION}, but run ${data.runId} was queued by bakeoff ${data.bakeoffVersion}: refusing it (every run of a bake is made by one bakeoff version); start workers of ${data.bakeoffVersion}`);
      await job.moveToDelayed(Date.now() + 1000, token);
      void worker?.close();
      throw new DelayedError();
    }
    // the attempt's number is its place in the run's list of starts
    const start: AttemptStart = { worker: options.name, startedAt: new Date().toISOString() };
    const attempt = await redis.rpush(keys.attempts(data.runId), JSON.stringify(start));
    active.add(data.runId);
    void announce().catch(() => {});
    options.onEvent?.({ type: 'job-start', runId: data.runId, task: data.task, agent: data.agentId, replay: data.replay, attempt });
    await mkdir(options.cacheDir, { recursive: true });
    const staging = await mkdtemp(path.join(options.cacheDir, 'fleet-artifacts-'));
    // each model request's spend goes to Redis as it ends: what a lost attempt cost is known up to its last one
    const spentKey = keys.spent(data.runId, attempt);
    const reporting = new Set<Promise<unknown>>();
    const onRequest = (order: number, row: RequestRow) => {
      const spent: SpentRequest = { order, seq: row.seq, model: row.model, input: row.input, cacheRead: row.cacheRead, cacheWrite: row.cacheWrite, output: row.output, reasoning: row.reasoning, costUsd: row.costUsd };
      const sent = redis.multi().rpush(spentKey, JSON.stringify(spent)).expire(spentKey, ARTIFACTS_TTL_SEC).exec().catch(() => {});
      reporting.add(sent);
      void sent.finally(() => reporting.delete(sent));
    };
    try {
      await mkdir(path.join(staging, 'artifacts'));
      const bundleDir = await bundleFor(data.suiteHash);
      if (bundleDir === null) return { kind: 'void', attempt, worker: options.name, detail: `the suite bundle ${data.suiteHash.slice(0, 12)}… is not in the queue's Redis (cleared?)` };
      const done = await options.execute(data, bundleDir, path.join(staging, 'artifacts'), {
        onStage: (stage) => void job.updateProgress({ stage }).catch(() => {}),
        onRequest,
      });
      await Promise.all(reporting);
      if (done.kind === 'void') {
        options.onEvent?.({ type: 'job-end', runId: data.runId, verdict: `void (${done.detail})` });
        return { kind: 'void', attempt, worker: options.name, detail: done.detail };
      }
      const { record, sessions, checks, error } = done.result;
      const packed = await packFolder(path.join(staging, 'artifacts'));
      const key = keys.artifacts(data.runId, attempt);
      await redis.set(key, packed.bytes, 'EX', ARTIFACTS_TTL_SEC);
      const o = record.outcome;
      options.onEvent?.({ type: 'job-end', runId: data.runId, verdict: o.kind === 'solved' ? 'solved' : `${o.kind} (${o.reason})` });
      return {
        kind: 'run',
        attempt,
        worker: options.name,
        record,
        sessions,
        checks,
        artifacts: { key, sha256: packed.sha256, bytes: packed.bytes.length },
        ...(error ? { error: error.message } : {}),
      };
    } finally {
      active.delete(data.runId);
      await rm(staging, { recursive: true, force: true });
    }
  };

  /** The suite of a hash, unpacked once per worker from the bundle in Redis; null when Redis has none. */
  const bundleFor = (suiteHash: string): Promise<string | null> => {
    const known = bundles.get(suiteHash);
    if (known) return known;
    const made = (async () => {
      const bytes = await redis.getBuffer(keys.bundle(suiteHash));
      if (!bytes) throw new BundleMissing();
      // named by its bytes too: a bundle that does not match its hash never takes the place of one that does
      const dir = path.join(options.cacheDir, 'fleet-bundles', `${suiteHash}-${sha256(bytes).slice(0, 16)}`);
      // content-addressed (and checked against its hash before any run): shared by every worker on this machine
      await unpackFolder(bytes, dir, true);
      return dir;
    })();
    bundles.set(suiteHash, made);
    return made.catch((error: unknown) => {
      bundles.delete(suiteHash);
      if (error instanceof BundleMissing) return null;
      throw error;
    });
  };

  worker = new Worker<RunJob, RunJobResult>(QUEUE, processJob, {
    connection: blocking,
    prefix: PREFIX,
    concurrency: options.concurrency,
    autorun: false,
    lockDuration: options.leaseSec * 1000,
    stalledInterval: options.leaseSec * 1000,
    // a lost worker's run goes back to the queue once; lost twice, it fails (the coordinator records it void)
    maxStalledCount: 1,
    name: options.name,
  });
  worker.on('error', () => {}); // connection losses are said once by the connection itself
  worker.on('failed', (job, error) => {
    if (job && !(error instanceof DelayedError)) notes.error(`run ${job.id}: ${error.message}`);
  });
  const running = worker.run();
  await worker.waitUntilReady();
  options.onEvent?.({ type: 'ready', name: options.name, concurrency: options.concurrency });
  const stopped = running.then(async () => {
    clearInterval(heartbeat);
    await redis.del(keys.worker(options.name)).catch(() => {});
    redis.disconnect();
    blocking.disconnect();
    if (refusal) throw refusal;
  });
  return {
    close: async (force = false) => {
      await worker!.close(force);
      await stopped.catch(() => {});
    },
    stopped,
  };
}

class BundleMissing extends Error {}

/** A worker of another bakeoff version than the queue's bake is refused at start (exit 3). */
async function refuseOtherVersion(redis: Redis, url: string): Promise<void> {
  const held = await redis.get(keys.bake);
  if (!held) return;
  const bake = JSON.parse(held) as FleetBake;
  if (bake.bakeoffVersion !== BAKEOFF_VERSION) {
    redis.disconnect();
    throw new InfraError(
      `this worker runs bakeoff ${BAKEOFF_VERSION}, but the bake on ${url} (suite ${bake.suiteId}) is coordinated by bakeoff ${bake.bakeoffVersion}: ` +
        `refusing to take its runs (every run of a bake is made by one bakeoff version); install ${bake.bakeoffVersion} here`,
    );
  }
}
