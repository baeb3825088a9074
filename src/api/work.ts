import { openRunner, type Runner } from '../run/index.js';
import type { Agent } from '../agents/index.js';
import {
  bundledHostFile,
  createFleetSeal,
  emptyQueue,
  openSessionSlots,
  queueAddressOf,
  queueStatus,
  readFleetSecret,
  startWorker,
  workerPolicy,
  type LinkNotes,
  type QueuePlace,
  type QueueStatus,
  type RunJob,
  type RunningWorker,
  type SessionSlots,
  type WorkerEvent,
} from '../queue/index.js';
import { Controls, loadSuite } from '../suite/index.js';
import { notifyVia, type NoteEvent } from './events.js';
import { isolationFor } from './isolation-for.js';
import { openRunParts, type RunParts } from './bake.js';
import { cacheDirOf, cwdOf, envOf, type Place } from './paths.js';
import { DEFAULT_SANDBOX, requireTools } from '../sandbox/index.js';

/** Where a fleet command finds its queue: `--queue` (else `BAKEOFF_QUEUE_URL`) and the TLS files. */
export type QueueRequest = Omit<QueuePlace, 'env' | 'cwd'>;

export interface WorkRequest extends Place, QueueRequest {
  /** This worker's name in `bakeoff queue status` and in each attempt it makes (default `host-pid`). */
  readonly name: string;
  /** Runs at once on this machine (default 2). */
  readonly concurrency?: number;
  /** Seconds a job's lease lasts: a lost worker's runs go back to the queue after one to two leases (default 30). */
  readonly leaseSec?: number;
  /** The fleet secret's file (default: `BAKEOFF_FLEET_SECRET_FILE`, else `BAKEOFF_FLEET_SECRET`). */
  readonly secretFile?: string;
  /**
   * The model APIs this worker sends its API keys to: `vendor`, `openrouter`, base URLs (default:
   * `BAKEOFF_ALLOW_UPSTREAMS`, comma-separated, else vendor and openrouter). A job asking for
   * another is refused.
   */
  readonly allowUpstreams?: readonly string[];
  readonly onEvent?: (event: WorkerEvent | NoteEvent) => void;
}

/**
 * `bakeoff worker`: runs the fleet's run jobs on this machine, each through the runner a local
 * bake uses (`openRunner`), with the suite unpacked from the queue's bundle and the agent
 * resolved here from its spec — the files the spec names read from the coordinator's signed
 * bundle, never this machine's disk. A run whose suite or agent does not resolve here as it did
 * on the coordinator is void (the instrument differs), never run differently. Returns at once;
 * `stopped` settles when the worker stops.
 */
export async function work(request: WorkRequest): Promise<RunningWorker> {
  const notify = notifyVia(request.onEvent);
  const env = envOf(request);
  const address = await queueAddressOf({ ...request, env, cwd: cwdOf(request) });
  const seal = createFleetSeal(await readFleetSecret({ ...(request.secretFile ? { secretFile: request.secretFile } : {}), env, cwd: cwdOf(request) }));
  const policy = workerPolicy(request.allowUpstreams ?? (env.BAKEOFF_ALLOW_UPSTREAMS ?? '').split(',').filter((u) => u.trim() !== ''));
  const cacheDir = cacheDirOf(request);
  // a worker with no working sandbox would void every run it took: refused before it takes one
  await requireTools(['bwrap', 'git', 'tar']);
  await isolationFor(Controls.parse({}), DEFAULT_SANDBOX, notify);
  const runners = new Map<string, Promise<{ parts: RunParts; runner: Runner } | { detail: string }>>();

  // one at a time: each opening checks the sandbox, and two checks at once in one process collide
  let opening: Promise<unknown> = Promise.resolve();
  // each runner its own scratch root: one root per label, and opening a root clears what was under it
  let opened = 0;
  const runnerFor = (job: RunJob, bundleDir: string, filesDir: string | null) => {
    const key = JSON.stringify([job.suiteHash, job.bundleSha256, job.files?.sha256, job.agentSpec, job.agentOptions]);
    const known = runners.get(key);
    if (known) return known;
    const made = opening.then(async () => {
      // the bundle is checked against the hash it was queued under before anything of it is used
      const bundled = await loadSuite(bundleDir).catch((error: Error) => error);
      if (bundled instanceof Error) return { detail: `the suite bundle ${job.suiteHash.slice(0, 12)}… does not load on worker ${request.name}: ${bundled.message}` };
      if (bundled.hash !== job.suiteHash) {
        return { detail: `the suite bundle unpacked here hashes to ${bundled.hash.slice(0, 12)}…, not ${job.suiteHash.slice(0, 12)}… as queued: damaged or tampered with` };
      }
      let parts: RunParts;
      try {
        parts = await openRunParts(
          // the files a spec names are the signed bundle's copies: a path a job names is never read from this machine's disk
          { suite: bundleDir, agents: [job.agentSpec], ...job.agentOptions, cacheDir, env, hostFile: bundledHostFile(filesDir ?? '/nonexistent', job.files) },
          notify,
          () => [],
        );
      } catch (error) {
        return { detail: `agent ${job.agentSpec} does not resolve on worker ${request.name}: ${(error as Error).message}` };
      }
      const agent = parts.agents[0]!;
      const differs =
        parts.suite.hash !== job.suiteHash
          ? `the suite bundle unpacked here hashes to ${parts.suite.hash.slice(0, 12)}…, not ${job.suiteHash.slice(0, 12)}… as queued: damaged or tampered with`
          : agent.digest !== job.agentDigest
            ? `agent ${job.agentSpec} resolves on worker ${request.name} to ${agent.info.id} (digest ${agent.digest.slice(0, 12)}…), not to the coordinator's ${job.agentId} (digest ${job.agentDigest.slice(0, 12)}…): another CLI version or settings here`
            : null;
      if (differs) {
        await parts.close();
        return { detail: differs };
      }
      const capped = job.upstreamConcurrency ? withSessionSlot(agent, job, await slotsOpen(), job.upstreamConcurrency) : agent;
      const runner = await openRunner({ ...parts, agents: [capped], scratchLabel: `worker ${request.name} (pid ${process.pid}) runner ${++opened}`, storageDir: cacheDir });
      return { parts, runner };
    });
    opening = made.catch(() => {});
    runners.set(key, made);
    return made;
  };

  let slots: Promise<SessionSlots> | undefined;
  const slotsOpen = (): Promise<SessionSlots> => (slots ??= openSessionSlots(address, notify));
  let held = 0;
  /** A model agent whose every session first takes one of the fleet's slots for its model API. */
  const withSessionSlot = (agent: Agent, job: RunJob, slotsOf: SessionSlots, limit: number): Agent => {
    if (agent.info.model === null) return agent;
    const upstream = job.agentOptions.upstream ?? 'vendor';
    // `vendor`: each harness speaks to its own vendor's API; any other upstream is one API for all
    const key = upstream === 'vendor' ? `vendor:${agent.info.harness}` : upstream;
    return {
      ...agent,
      runSession: async (context) => {
        // waiting for a slot is outside the session: its clock starts when the CLI does
        const release = await slotsOf.acquire(key, limit, `${request.name}:${process.pid}:${++held}`);
        try {
          return await agent.runSession(context);
        } finally {
          await release();
        }
      },
    };
  };

  const worker = await startWorker({
    address,
    name: request.name,
    concurrency: request.concurrency ?? 2,
    leaseSec: request.leaseSec ?? 30,
    cacheDir,
    seal,
    policy,
    notes: notify,
    ...(request.onEvent ? { onEvent: request.onEvent } : {}),
    execute: async (job, place, watch) => {
      const open = await runnerFor(job, place.bundleDir, place.filesDir);
      if ('detail' in open) return { kind: 'void', detail: open.detail };
      const result = await open.runner.run(
        { id: job.runId, task: job.task, agentIndex: 0, replay: job.replay },
        place.artifactsDir,
        { onStage: (stage) => watch.onStage(`${stage.stage} ${stage.order}`), onRequest: watch.onRequest },
        place.scratchName,
      );
      return { kind: 'run', result };
    },
  });
  const closeRunners = async () => {
    for (const made of runners.values()) {
      const open = await made.catch(() => null);
      if (open && 'runner' in open) {
        await open.runner.close();
        await open.parts.close();
      }
    }
  };
  const stopped = worker.stopped.finally(async () => {
    await closeRunners();
    (await slots?.catch(() => undefined))?.close();
  });
  return {
    stop: (graceMs) => worker.stop(graceMs),
    close: async (force) => {
      await worker.close(force);
      await stopped.catch(() => {});
    },
    stopped,
  };
}

/** `bakeoff queue status`. */
export async function queueStatusAt(request: QueueRequest & Place, notes: LinkNotes): Promise<QueueStatus> {
  return queueStatus(await queueAddressOf({ ...request, env: envOf(request), cwd: cwdOf(request) }), notes);
}

/** `bakeoff queue drain|clear` (see {@link emptyQueue}). */
export async function emptyQueueAt(request: QueueRequest & Place, notes: LinkNotes, how: 'drain' | 'clear'): Promise<{ readonly removed: number }> {
  return emptyQueue(await queueAddressOf({ ...request, env: envOf(request), cwd: cwdOf(request) }), notes, how);
}
