import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { InfraError } from '../errors.js';
import type { RequestRow } from '../store/index.js';
import { BAKEOFF_VERSION } from '../version.js';
import { connectQueue, type LinkNotes, type QueueAddress } from './connection.js';
import { ARTIFACTS_TTL_SEC, keys, PREFIX, QUEUE, REFUSED, WORKER_TTL_SEC, type AttemptStart, type FleetBake, type RunJob, type RunJobResult, type SpentRequest, type WorkerInfo } from './jobs.js';
import { sealText, timedSeal, type FleetSeal, type Sealed } from './seal.js';
import { cleanFleetLeftovers, findFleetLeftovers, makeStaging } from './staging.js';
import { packFolder } from './tarball.js';
import { createBundleCache } from './worker-bundles.js';
import { refusalOf, type WorkerPolicy } from './worker-policy.js';
import type { ExecuteJob, RunningWorker, StopResult, WorkerEvent } from './worker-types.js';

export type { ExecuteJob, JobPlace, RunningWorker, StopResult, WorkerEvent } from './worker-types.js';

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
  /** Opens what the coordinator sealed, seals what this worker hands back (the fleet secret). */
  readonly seal: FleetSeal;
  /** Where this worker's keys may go. */
  readonly policy: WorkerPolicy;
  readonly execute: ExecuteJob;
  readonly notes: LinkNotes & { error(message: string): void };
  readonly onEvent?: (event: WorkerEvent) => void;
}

/**
 * Registers an attempt in the run's list of starts only while the job's lease is the caller's
 * (KEYS[1] the lock, ARGV[1] the caller's lock token): a worker whose lease lapsed can add no
 * attempt, so the last start is always the attempt the queue gives the run to. Returns the
 * attempt's number, or 0.
 */
const REGISTER = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local n = redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[3]))
return n
`;

/** A running attempt, as the worker follows it. */
interface Attempt {
  readonly job: Job<Sealed, Sealed>;
  readonly lockToken: string;
  readonly runId: string;
  readonly attempt: number;
  /** Handed back by a graceful stop: its result is dropped. */
  handedBack: boolean;
  /** Its lease was lost (cleared, leased to another attempt): its result is dropped. */
  superseded: boolean;
}

/**
 * `bakeoff worker`: takes run jobs from the fleet's queue, `concurrency` at a time, and hands back
 * each run's record, sessions, checks and artifacts (with their checksum), sealed. It never
 * writes a results folder; the coordinator does. It runs only jobs whose seal opens with the
 * fleet secret, for upstreams its policy allows, with bundles whose bytes are the signed ones;
 * a refused job fails at once with the reason, nothing of it having run. Each attempt is
 * registered (under the job's lease) before it starts, so one cut short is counted (and shown)
 * when another worker's attempt is recorded.
 */
export async function startWorker(options: WorkOptions): Promise<RunningWorker> {
  const { notes } = options;
  const redis = await connectQueue(options.address, notes);
  await refuseOtherVersion(redis, options.address.url);
  const blocking = await connectQueue(options.address).catch((error: unknown) => {
    redis.disconnect();
    throw error;
  });
  // what killed workers left in this cache folder
  await cleanFleetLeftovers(await findFleetLeftovers(options.cacheDir)).catch(() => []);
  const attempts = new Map<string, Attempt>();
  /** Runs whose attempt just ended here, until BullMQ let go of its lease. */
  const ending = new Set<string>();
  const startedAt = new Date().toISOString();
  let stopping = false;
  let finishedWhileStopping = 0;
  const announce = async () => {
    const info: WorkerInfo = {
      name: options.name,
      host: hostname(),
      pid: process.pid,
      bakeoffVersion: BAKEOFF_VERSION,
      concurrency: options.concurrency,
      startedAt,
      active: [...new Set([...attempts.values()].filter((a) => !a.handedBack && !a.superseded).map((a) => a.runId))],
      ...(stopping ? { stopping: true } : {}),
    };
    await redis.set(keys.worker(options.name), JSON.stringify(info), 'EX', WORKER_TTL_SEC);
  };
  await announce();
  const heartbeat = setInterval(() => void announce().catch(() => {}), (WORKER_TTL_SEC * 1000) / 3);
  const bundles = createBundleCache(redis, options.cacheDir);
  let refusal: Error | null = null;
  let worker: Worker<Sealed, Sealed> | undefined;

  const refuse = (runId: string, reason: string): never => {
    options.onEvent?.({ type: 'job-refused', runId, reason });
    throw new UnrecoverableError(`${REFUSED}${options.name}: ${reason}`);
  };

  const processJob = async (job: Job<Sealed, Sealed>, lockToken?: string): Promise<Sealed> => {
    // a fetch already under way when the stop began can still bring a job (BullMQ's close() does not
    // cancel it): a stopping worker starts nothing and puts that job straight back for another worker
    if (stopping) {
      await job.moveToWait(lockToken);
      throw new DelayedError();
    }
    // what the fleet's checks cost this job here: its seals and the policy (a bundle's digest is checked once per machine)
    const seal = timedSeal(options.seal);
    const opened = seal.open<RunJob>('job', job.data);
    if (!opened.ok) return refuse(job.id ?? '?', `job ${job.id}: ${opened.why}`);
    const data = opened.value;
    if (data.bakeoffVersion !== BAKEOFF_VERSION) {
      // not ours to run: back to the queue for a worker of the coordinator's version, and this one stops
      refusal = new InfraError(`worker ${options.name} runs bakeoff ${BAKEOFF_VERSION}, but run ${data.runId} was queued by bakeoff ${data.bakeoffVersion}: refusing it (every run of a bake is made by one bakeoff version); start workers of ${data.bakeoffVersion}`);
      await job.moveToDelayed(Date.now() + 1000, lockToken);
      void worker?.close();
      throw new DelayedError();
    }
    const t0 = performance.now();
    const why = refusalOf(data, job.id, options.policy);
    const policyMs = performance.now() - t0;
    if (why !== null) return refuse(data.runId, why);
    if ([...attempts.values()].some((a) => a.runId === data.runId) || ending.has(data.runId)) {
      // this worker still runs an earlier attempt of the run, whose lease the queue lost (a clear, a stall, an outage): BullMQ
      // follows one lease per job id in a worker, so the new attempt waits for the stale one to end — here, or on another worker
      await job.moveToDelayed(Date.now() + 1000, lockToken);
      throw new DelayedError();
    }
    // the bundles, checked against the digests the job signs, before the attempt is registered
    const suite = await bundles.suite(data);
    if ('refused' in suite) return refuse(data.runId, suite.refused);
    const files = await bundles.files(data);
    if ('refused' in files) return refuse(data.runId, files.refused);
    const token = randomBytes(16).toString('hex');
    const start: AttemptStart = { worker: options.name, startedAt: new Date().toISOString(), token };
    const startText = sealText(seal, 'attempt', start);
    const attempt = Number(await redis.eval(REGISTER, 2, keys.lock(data.runId), keys.attempts(data.runId), lockToken ?? '', startText, ARTIFACTS_TTL_SEC));
    // the lease was lost before the attempt began (a stall, a clear): the queue gives the run to another attempt
    if (attempt === 0) throw new DelayedError();
    const mine: Attempt = { job, lockToken: lockToken ?? '', runId: data.runId, attempt, handedBack: false, superseded: false };
    attempts.set(token, mine);
    void announce().catch(() => {});
    options.onEvent?.({ type: 'job-start', runId: data.runId, task: data.task, agent: data.agentId, replay: data.replay, attempt });
    const staging = await makeStaging(options.cacheDir, options.name);
    // each model request's spend goes to Redis as it ends: what a lost attempt cost is known up to its last one
    const spentKey = keys.spent(data.runId, attempt);
    const reporting = new Set<Promise<unknown>>();
    const onRequest = (order: number, row: RequestRow) => {
      const spent: SpentRequest = { order, seq: row.seq, model: row.model, input: row.input, cacheRead: row.cacheRead, cacheWrite: row.cacheWrite, output: row.output, reasoning: row.reasoning, costUsd: row.costUsd };
      const sent = redis.multi().rpush(spentKey, sealText(seal, 'spent', spent)).expire(spentKey, ARTIFACTS_TTL_SEC).exec().catch(() => {});
      reporting.add(sent);
      void sent.finally(() => reporting.delete(sent));
    };
    /** Nothing of an attempt handed back or superseded is handed back as a run. */
    const dropped = async (): Promise<boolean> => {
      if (mine.handedBack) return true;
      if (!mine.superseded && (await redis.get(keys.lock(data.runId))) !== mine.lockToken) mine.superseded = true;
      if (mine.superseded) options.onEvent?.({ type: 'job-superseded', runId: data.runId, attempt });
      return mine.superseded;
    };
    try {
      const artifactsDir = path.join(staging.dir, 'artifacts');
      await mkdir(artifactsDir);
      let done: Awaited<ReturnType<ExecuteJob>>;
      try {
        done = await options.execute(data, { bundleDir: suite.dir, filesDir: files.dir, artifactsDir, scratchName: `${data.runId}-${attempt}-${token.slice(0, 8)}` }, {
          onStage: (stage) => void job.updateProgress({ stage }).catch(() => {}),
          onRequest,
        });
      } catch (error) {
        if (mine.handedBack) throw new DelayedError();
        throw error;
      }
      await Promise.all(reporting);
      if (await dropped()) throw new DelayedError();
      let result: RunJobResult;
      if (done.kind === 'void') {
        options.onEvent?.({ type: 'job-end', runId: data.runId, verdict: `void (${done.detail})` });
        result = { kind: 'void', attempt, token, worker: options.name, detail: done.detail };
      } else {
        const { record, sessions, checks, error } = done.result;
        const packed = await packFolder(artifactsDir);
        const key = keys.artifacts(data.runId, attempt);
        await redis.set(key, packed.bytes, 'EX', ARTIFACTS_TTL_SEC);
        const o = record.outcome;
        options.onEvent?.({ type: 'job-end', runId: data.runId, verdict: o.kind === 'solved' ? 'solved' : `${o.kind} (${o.reason})` });
        result = { kind: 'run', attempt, token, worker: options.name, record, sessions, checks, artifacts: { key, sha256: packed.sha256, bytes: packed.bytes.length }, ...(error ? { error: error.message } : {}) };
      }
      if (stopping) finishedWhileStopping++;
      const sealed = seal.seal('result', result);
      // a measurement beside the seal, not part of it: what the fleet's checks cost this attempt here
      return { ...sealed, checksMs: seal.ms() + policyMs } as Sealed;
    } finally {
      attempts.delete(token);
      // BullMQ lets go of the job's lease right after this returns: until then a new attempt of the run waits
      ending.add(data.runId);
      setImmediate(() => ending.delete(data.runId));
      void announce().catch(() => {});
      await staging.done();
    }
  };

  worker = new Worker<Sealed, Sealed>(QUEUE, processJob, {
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
    if (job && !(error instanceof DelayedError) && !(error instanceof UnrecoverableError && error.message.startsWith(REFUSED))) notes.error(`run ${job.id}: ${error.message}`);
  });
  const running = worker.run();
  await worker.waitUntilReady();
  options.onEvent?.({ type: 'ready', name: options.name, concurrency: options.concurrency, upstreams: options.policy.upstreams });
  const stopped = running.then(async () => {
    clearInterval(heartbeat);
    await redis.del(keys.worker(options.name)).catch(() => {});
    redis.disconnect();
    blocking.disconnect();
    if (refusal) throw refusal;
  });
  return {
    stop: async (graceMs) => {
      stopping = true;
      // first: no new job (BullMQ stops fetching at once, then waits for the running ones)
      const closing = worker!.close();
      void announce().catch(() => {});
      options.onEvent?.({ type: 'stopping', running: attempts.size, graceSec: graceMs / 1000 });
      let timer: NodeJS.Timeout | undefined;
      const inTime = await Promise.race([closing.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))]);
      clearTimeout(timer);
      if (inTime) return { finished: finishedWhileStopping, handedBack: [] };
      const handedBack: string[] = [];
      for (const a of attempts.values()) {
        if (a.superseded) continue;
        a.handedBack = true;
        // back to the queue now, for another worker: only while the lease is still this attempt's
        await a.job.moveToWait(a.lockToken).then(
          () => {
            handedBack.push(a.runId);
            options.onEvent?.({ type: 'handed-back', runId: a.runId, attempt: a.attempt });
          },
          () => {},
        );
      }
      return { finished: finishedWhileStopping, handedBack };
    },
    close: async (force = false) => {
      await worker!.close(force);
      await stopped.catch(() => {});
    },
    stopped,
  };
}

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
