import { hostname } from 'node:os';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Agent } from '../agents/index.js';
import type { RunSpec } from '../plan/index.js';
import { beginBake, lostRunRecord, rejectedTasks, type BakeEvent, type BakeSummary } from '../run/index.js';
import type { TaskSelection } from '../plan/index.js';
import type { AttemptRow, CheckRow, SessionRow, Store } from '../store/index.js';
import type { Suite, SuiteLock } from '../suite/index.js';
import type { RunRecord } from '../types.js';
import { sha256 } from '../util/index.js';
import { BAKEOFF_VERSION } from '../version.js';
import { connectQueue, type LinkNotes, type QueueAddress } from './connection.js';
import { keys, PREFIX, QUEUE, type AttemptStart, type RunJob, type RunJobResult, type SpentRequest } from './jobs.js';
import { attemptRows } from './attempt-rows.js';
import { BAKE_TTL_SEC, claimQueue, publishBundle, releaseQueue } from './claim-queue.js';
import { unpackFolder } from './tarball.js';

export interface CoordinateOptions {
  readonly address: QueueAddress;
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly agents: readonly Agent[];
  /** The spec each agent was resolved from (same order): what a worker resolves again. */
  readonly agentSpecs: readonly string[];
  readonly agentOptions: RunJob['agentOptions'];
  /** Model sessions at once per model API over the whole fleet (absent: no cap). */
  readonly upstreamConcurrency?: number;
  readonly runsPerTask?: number;
  readonly patchMissing?: 'skip' | 'empty';
  /** Some of the admitted tasks only (`--task`, `--limit`). */
  readonly selection?: TaskSelection;
  /** The results folder: the coordinator is its only writer. */
  readonly store: Store;
  /** The coordinator's runtime, for the void records it writes itself. */
  readonly runtime: Readonly<Record<string, string>>;
  readonly notes: LinkNotes & { error(message: string): void };
  readonly onEvent?: (event: BakeEvent) => void;
  /** How often every outstanding run's job is looked at besides the queue's events (default 3 s). */
  readonly sweepMs?: number;
}

export interface FleetSummary extends BakeSummary {
  /** Runs that ran more than once because a worker was lost (the last attempt is the one recorded). */
  readonly reExecuted: number;
  /** Attempts that never finished because their worker was lost (they may have cost money). */
  readonly abandonedAttempts: number;
  /** Completions of a run already recorded, ignored. */
  readonly duplicatesIgnored: number;
  /** Per recorded run: ms from the worker's completion to the run stored here. */
  readonly ingestMs: readonly number[];
  /** Per enqueued run: ms spent enqueueing it. */
  readonly enqueueMs: number;
  /** Every attempt at the runs stored this time, as stored (abandoned ones with what they spent). */
  readonly attempts: readonly AttemptRow[];
  /** Runs stored this time, by the worker that handed them back. */
  readonly runsPerWorker: Readonly<Record<string, number>>;
}

/**
 * `bakeoff run --queue`: the bake of a local run, with the runs done by a fleet of workers.
 * Publishes the suite bundle by its hash, enqueues one job per missing run under the run's id
 * (so enqueueing twice adds nothing), follows the queue, and stores each run handed back in
 * the results folder — the only writer of it — once: a second completion is ignored.
 */
export async function coordinate(options: CoordinateOptions): Promise<FleetSummary> {
  const { suite, store, notes } = options;
  const emit = options.onEvent ?? (() => {});
  const redis = await connectQueue(options.address, notes);
  const events = await connectQueue(options.address, { note: () => {} });
  const queue = new Queue<RunJob, RunJobResult>(QUEUE, { connection: redis, prefix: PREFIX });
  const queueEvents = new QueueEvents(QUEUE, { connection: events, prefix: PREFIX, autorun: false });
  const me = `${hostname()}:${process.pid}`;
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    await claimQueue(redis, queue, suite, me, options.address.url);
    heartbeat = setInterval(() => void redis.expire(keys.bake, BAKE_TTL_SEC).catch(() => {}), 5000);
    await publishBundle(redis, suite);

    const { specs, pending: missing } = beginBake(options, emit);
    const pending = new Map(missing.map((s) => [s.id, s]));
    const agentIndexOf = (spec: RunSpec) => options.agents[spec.agentIndex]!;
    const stats = { reExecuted: 0, abandonedAttempts: 0, duplicatesIgnored: 0, ingestMs: [] as number[], runsPerWorker: {} as Record<string, number>, attempts: [] as AttemptRow[] };
    const ingesting = new Set<string>();
    let settle: () => void = () => {};
    const allDone = new Promise<void>((resolve) => (settle = resolve));
    if (pending.size === 0) settle();

    const runJob = (spec: RunSpec): RunJob => ({
      schemaVersion: 1,
      bakeoffVersion: BAKEOFF_VERSION,
      suiteId: suite.id,
      suiteHash: suite.hash,
      runId: spec.id,
      task: spec.task,
      replay: spec.replay,
      agentSpec: options.agentSpecs[spec.agentIndex]!,
      agentDigest: agentIndexOf(spec).digest,
      agentId: agentIndexOf(spec).info.id,
      agentOptions: options.agentOptions,
      ...(options.upstreamConcurrency ? { upstreamConcurrency: options.upstreamConcurrency } : {}),
      enqueuedAt: Date.now(),
    });
    const enqueue = async (list: readonly RunSpec[]): Promise<void> => {
      if (list.length === 0) return;
      // the run id is the job id: a run already queued or running is not added again
      await queue.addBulk(list.map((spec) => ({ name: 'run', data: runJob(spec), opts: { jobId: spec.id, attempts: 1, removeOnComplete: false, removeOnFail: false } })));
    };

    /** Stores what the job of a pending run came to, once; a run already stored is left as it is. */
    const ingest = async (job: Job<RunJob, RunJobResult>, state: 'completed' | 'failed'): Promise<void> => {
      const spec = pending.get(job.id!);
      if (!spec || ingesting.has(spec.id)) {
        if (!spec) stats.duplicatesIgnored++;
        return;
      }
      ingesting.add(spec.id);
      try {
        const finishedOn = job.finishedOn ?? Date.now();
        const starts = (await redis.lrange(keys.attempts(spec.id), 0, -1)).map((s, i) => ({ ...(JSON.parse(s) as AttemptStart), attempt: i + 1 }));
        const lost = (detail: string) => lostRunRecord({ suite, agents: options.agents, runtime: options.runtime }, spec, detail);
        const result = state === 'completed' ? job.returnvalue : undefined;
        let record: RunRecord;
        let sessions: readonly SessionRow[] = [];
        let checks: readonly CheckRow[] = [];
        const artifactsDir = store.artifactsTempDir(spec.id);
        // why no worker handed anything back: lost twice (BullMQ gave up on the job), or its job failed
        const unfinished = /stalled more than allowable limit/.test(job.failedReason ?? '')
          ? `its worker was lost twice (${starts.length} attempt(s) abandoned): recorded void rather than run a third time (BullMQ: ${job.failedReason})`
          : `no worker finished this run: ${job.failedReason ?? 'its job failed'}`;
        if (!result) {
          record = lost(unfinished);
        } else if (result.kind === 'void') {
          record = lost(`worker ${result.worker}: ${result.detail}`);
        } else {
          const bytes = await redis.getBuffer(result.artifacts.key);
          if (!bytes) {
            // its artifacts were claimed by another results folder's coordinator: this folder's run is redone
            await job.remove();
            await enqueue([spec]);
            return;
          }
          if (sha256(bytes) !== result.artifacts.sha256) {
            record = lost(`the artifacts worker ${result.worker} handed back do not match their checksum (${result.artifacts.sha256.slice(0, 12)}…): damaged in transit`);
          } else {
            await unpackFolder(bytes, artifactsDir);
            record = result.record;
            sessions = result.sessions;
            checks = result.checks;
          }
        }
        const recordedAttempt = result?.attempt ?? null;
        // what each lost attempt's worker reported of its model requests before it was lost
        const spent = new Map<number, SpentRequest[]>();
        for (const a of starts) {
          if (a.attempt !== recordedAttempt) spent.set(a.attempt, (await redis.lrange(keys.spent(spec.id, a.attempt), 0, -1)).map((row) => JSON.parse(row) as SpentRequest));
        }
        const attempts = attemptRows({
          runId: spec.id,
          starts,
          recorded: recordedAttempt === null ? null : { attempt: recordedAttempt, record: result?.kind === 'run' ? result.record : null },
          metered: agentIndexOf(spec).info.model !== null,
          spent,
        });
        store.saveRun(record, sessions, checks, artifactsDir, attempts);
        stats.attempts.push(...attempts);
        pending.delete(spec.id);
        stats.ingestMs.push(Date.now() - finishedOn);
        if (result) stats.runsPerWorker[result.worker] = (stats.runsPerWorker[result.worker] ?? 0) + 1;
        const abandoned = attempts.filter((a) => a.state === 'abandoned').length;
        stats.abandonedAttempts += abandoned;
        if (abandoned > 0 && recordedAttempt !== null) stats.reExecuted++;
        const error = result?.kind === 'run' ? result.error : result ? result.detail : unfinished;
        emit({ type: 'run-end', record, ...(result ? { worker: result.worker } : {}), ...(record.outcome.kind === 'void' && record.outcome.reason === 'infra-error' && error ? { error: new Error(error) } : {}) });
        // the store has it now: the job and what it left in Redis can go (a re-run checks the store first)
        await redis.del(keys.attempts(spec.id), ...starts.flatMap((a) => [keys.artifacts(spec.id, a.attempt), keys.spent(spec.id, a.attempt)]));
        await job.remove().catch(() => {});
        if (pending.size === 0) settle();
      } finally {
        ingesting.delete(spec.id);
      }
    };

    const look = async (id: string): Promise<void> => {
      const job = await queue.getJob(id);
      if (!job) {
        // never queued, or taken out of the queue (`bakeoff queue clear`) before it was recorded
        if (pending.has(id) && !ingesting.has(id)) await enqueue([pending.get(id)!]);
        return;
      }
      const state = await job.getState();
      if (state === 'completed' || state === 'failed') await ingest(job, state);
    };

    queueEvents.on('active', ({ jobId }) => {
      const spec = pending.get(jobId);
      if (spec) emit({ type: 'run-start', runId: spec.id, task: spec.task, agent: agentIndexOf(spec).info.id, replay: spec.replay });
    });
    queueEvents.on('stalled', ({ jobId }) => {
      if (!pending.has(jobId)) return;
      // workers let a run be lost once (BullMQ's maxStalledCount): the second loss fails its job
      void redis
        .llen(keys.attempts(jobId))
        .then((starts) =>
          // stored meanwhile (its attempts gone from Redis): the run's own line says what became of it
          (starts === 0 && !pending.has(jobId)) || notes.note(
            starts >= 2
              ? `run ${jobId}: its worker was lost again; the run is recorded void, not run a third time (neither lost attempt is recorded as a run)`
              : `run ${jobId}: its worker was lost; the run goes back to the queue for another worker (the lost attempt is never recorded as a run)`,
          ),
        )
        .catch(() => {});
    });
    const onFinished = (jobId: string) => {
      if (pending.has(jobId)) void look(jobId).catch((error: Error) => notes.error(`run ${jobId}: could not store it yet (${error.message}); trying again`));
    };
    queueEvents.on('completed', ({ jobId }) => onFinished(jobId));
    queueEvents.on('failed', ({ jobId }) => onFinished(jobId));
    queueEvents.on('error', () => {});
    void queueEvents.run().catch(() => {});
    await queueEvents.waitUntilReady();

    // what an earlier coordinator of this bake left (queued, running, finished but not stored) is picked up, the rest enqueued
    const t0 = Date.now();
    const absent: RunSpec[] = [];
    for (const spec of missing) {
      const job = await queue.getJob(spec.id);
      if (!job) absent.push(spec);
      else {
        const state = await job.getState();
        if (state === 'completed' || state === 'failed') await ingest(job, state);
      }
    }
    await enqueue(absent);
    const enqueueMs = absent.length > 0 ? (Date.now() - t0) / absent.length : 0;

    // besides the queue's events (missed while Redis was away): the finished jobs every sweep —
    // few, since each is removed once stored — and, every tenth, each pending run for a lost job
    const sweepMs = options.sweepMs ?? 3000;
    let sweeps = 0;
    const sweep = setInterval(() => {
      void (async () => {
        if (++sweeps % 10 === 0) {
          for (const id of [...pending.keys()]) await look(id);
          return;
        }
        for (const job of await queue.getJobs(['completed', 'failed'])) if (job?.id && pending.has(job.id)) await look(job.id);
      })().catch(() => {});
    }, sweepMs);
    try {
      await allDone;
    } finally {
      clearInterval(sweep);
    }
    return {
      planned: specs.length,
      alreadyDone: specs.length - missing.length,
      ran: missing.length,
      rejected: rejectedTasks(suite, options.lock),
      ...stats,
      enqueueMs,
    };
  } finally {
    clearInterval(heartbeat);
    await releaseQueue(redis, me).catch(() => {});
    await queueEvents.close().catch(() => {});
    await queue.close().catch(() => {});
    redis.disconnect();
    events.disconnect();
  }
}
