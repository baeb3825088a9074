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
import { BAKEOFF_VERSION } from '../version.js';
import { connectQueue, type LinkNotes, type QueueAddress } from './connection.js';
import { keys, PREFIX, QUEUE, type AgentFiles, type RunJob } from './jobs.js';
import { attemptRows } from './attempt-rows.js';
import { packAgentFiles } from './agent-files.js';
import { claimQueue, expireBundles, keepClaim, publishBundle, takenOver } from './claim-queue.js';
import { dropStoredLeftovers } from './drop-stored-leftovers.js';
import { openHandBack } from './open-hand-back.js';
import type { FleetSeal, Sealed } from './seal.js';
import { packFolder, unpackFolder } from './tarball.js';

export interface CoordinateOptions {
  readonly address: QueueAddress;
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly agents: readonly Agent[];
  /** The spec each agent was resolved from (same order): what a worker resolves again. */
  readonly agentSpecs: readonly string[];
  readonly agentOptions: RunJob['agentOptions'];
  /** The files the agent specs name (read on this machine): they travel in a signed bundle, never read on a worker's disk. */
  readonly agentFiles: readonly string[];
  /** Seals the jobs, opens what the workers hand back (the fleet secret). */
  readonly seal: FleetSeal;
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
  /**
   * Runs not recorded because a worker refused their job (a seal that does not open, an upstream
   * it does not send its keys to, a bundle that is not the signed one) or handed back a result
   * that is not the run's sealed, current attempt's: the same command again redoes them.
   */
  readonly refused: readonly { readonly runId: string; readonly reason: string }[];
  /** Per recorded run: ms the fleet's seals and checks cost (the worker's and this coordinator's). */
  readonly trustMs: readonly number[];
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
  const { seal } = options;
  const redis = await connectQueue(options.address, notes);
  const events = await connectQueue(options.address);
  const queue = new Queue<Sealed, Sealed>(QUEUE, { connection: redis, prefix: PREFIX });
  const queueEvents = new QueueEvents(QUEUE, { connection: events, prefix: PREFIX, autorun: false });
  // connection losses are said once by the connections themselves: without a listener, BullMQ prints each error's stack
  queue.on('error', () => {});
  const me = `${hostname()}:${process.pid}`;
  let stopKeeping: () => void = () => {};
  let release: () => Promise<void> = async () => {};
  try {
    const claim = await claimQueue(redis, queue, suite, me, options.address.url);
    release = claim.release;
    const bundleKeys: string[] = [];
    let fail: (error: Error) => void = () => {};
    // another coordinator's claim found on a heartbeat stops this one
    stopKeeping = keepClaim(redis, claim, bundleKeys, (other) => fail(takenOver(options.address.url, other)));

    const suiteBundle = await packFolder(suite.dir);
    await publishBundle(redis, keys.bundle(suiteBundle.sha256), suiteBundle.bytes);
    const packedFiles = await packAgentFiles(options.agentFiles);
    if (packedFiles) await publishBundle(redis, keys.files(packedFiles.files.sha256), packedFiles.bytes);
    bundleKeys.push(keys.bundle(suiteBundle.sha256), ...(packedFiles ? [keys.files(packedFiles.files.sha256)] : []));
    const files: AgentFiles | undefined = packedFiles?.files;

    const { specs, pending: missing } = beginBake(options, emit);
    const pending = new Map(missing.map((s) => [s.id, s]));
    await dropStoredLeftovers(redis, queue, new Set(specs.filter((s) => !pending.has(s.id)).map((s) => s.id)));
    const agentIndexOf = (spec: RunSpec) => options.agents[spec.agentIndex]!;
    const stats = {
      reExecuted: 0,
      abandonedAttempts: 0,
      duplicatesIgnored: 0,
      ingestMs: [] as number[],
      runsPerWorker: {} as Record<string, number>,
      attempts: [] as AttemptRow[],
      refused: [] as { runId: string; reason: string }[],
      trustMs: [] as number[],
    };
    const ingesting = new Set<string>();
    let settle: () => void = () => {};
    const allDone = new Promise<void>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    // rejected when another coordinator took the queue: awaited below, never left unhandled meanwhile
    allDone.catch(() => {});
    if (pending.size === 0) settle();

    const runJob = (spec: RunSpec): RunJob => ({
      schemaVersion: 2,
      bakeoffVersion: BAKEOFF_VERSION,
      suiteId: suite.id,
      suiteHash: suite.hash,
      bundleSha256: suiteBundle.sha256,
      ...(files ? { files } : {}),
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
      await queue.addBulk(list.map((spec) => ({ name: 'run', data: seal.seal('job', runJob(spec)), opts: { jobId: spec.id, attempts: 1, removeOnComplete: false, removeOnFail: false } })));
    };

    /** The run is not recorded (refused, or not sealed as the run's current attempt's): said, counted, redone by the next coordinator. */
    const leaveUnrecorded = async (spec: RunSpec, job: Job<Sealed, Sealed>, reason: string): Promise<void> => {
      notes.error(`run ${spec.id} (${spec.task}, ${agentIndexOf(spec).info.id}) is not recorded: ${reason}`);
      stats.refused.push({ runId: spec.id, reason });
      pending.delete(spec.id);
      await job.remove().catch(() => {});
      if (pending.size === 0) settle();
    };

    /** Stores what the job of a pending run came to, once; a run already stored is left as it is. */
    const ingest = async (job: Job<Sealed, Sealed>, state: 'completed' | 'failed'): Promise<void> => {
      const spec = pending.get(job.id!);
      if (!spec || ingesting.has(spec.id)) {
        if (!spec) stats.duplicatesIgnored++;
        return;
      }
      ingesting.add(spec.id);
      try {
        const finishedOn = job.finishedOn ?? Date.now();
        const back = await openHandBack({ redis, seal, runId: spec.id, job, state });
        if (back.kind === 'refused') return await leaveUnrecorded(spec, job, back.reason);
        if (back.kind === 'redo') {
          // its artifacts were claimed by another results folder's coordinator: this folder's run is redone
          await job.remove();
          await enqueue([spec]);
          return;
        }
        const { result, starts } = back;
        if (back.ignored > 0) notes.note(`run ${spec.id}: ${back.ignored} entr${back.ignored === 1 ? 'y' : 'ies'} of its attempts in Redis not sealed by a worker of this fleet, ignored`);
        const artifactsDir = store.artifactsTempDir(spec.id);
        let record: RunRecord;
        let sessions: readonly SessionRow[] = [];
        let checks: readonly CheckRow[] = [];
        if (back.voidDetail !== null || result?.kind !== 'run' || back.artifacts === null) {
          record = lostRunRecord({ suite, agents: options.agents, runtime: options.runtime }, spec, back.voidDetail ?? 'no worker finished this run');
        } else {
          await unpackFolder(back.artifacts, artifactsDir);
          record = result.record;
          sessions = result.sessions;
          checks = result.checks;
        }
        const recordedAttempt = result?.attempt ?? null;
        const attempts = attemptRows({
          runId: spec.id,
          starts,
          recorded: recordedAttempt === null ? null : { attempt: recordedAttempt, record: result?.kind === 'run' ? result.record : null },
          metered: agentIndexOf(spec).info.model !== null,
          spent: back.spent,
        });
        store.saveRun(record, sessions, checks, artifactsDir, attempts);
        stats.attempts.push(...attempts);
        pending.delete(spec.id);
        stats.ingestMs.push(Date.now() - finishedOn);
        if (back.trustMs !== null) stats.trustMs.push(back.trustMs);
        if (result) stats.runsPerWorker[result.worker] = (stats.runsPerWorker[result.worker] ?? 0) + 1;
        const abandoned = attempts.filter((a) => a.state === 'abandoned').length;
        stats.abandonedAttempts += abandoned;
        if (abandoned > 0 && recordedAttempt !== null) stats.reExecuted++;
        const error = result?.kind === 'run' ? (result.error ?? back.voidDetail) : back.voidDetail;
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
    // every run of the bake is stored or left for the next coordinator: its bundles go within the hour
    if (pending.size === 0) await expireBundles(redis, bundleKeys).catch(() => {});
    return {
      planned: specs.length,
      alreadyDone: specs.length - missing.length,
      ran: missing.length,
      rejected: rejectedTasks(suite, options.lock),
      ...stats,
      enqueueMs,
    };
  } finally {
    stopKeeping();
    await release().catch(() => {});
    await queueEvents.close().catch(() => {});
    await queue.close().catch(() => {});
    redis.disconnect();
    events.disconnect();
  }
}

