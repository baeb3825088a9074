import os from 'node:os';
import path from 'node:path';
import { parseHarnessSpec, resolveAgents, type Agent, type HostFile } from '../agents/index.js';
import { UserError } from '../errors.js';
import type { LeaderboardView } from '../report/view/leaderboard-view.js';
import { summarize } from '../report/view/summarize.js';
import { selectTasks, type TaskSelection } from '../plan/index.js';
import type { FleetSeal, FleetSummary, QueueAddress, recordingHostFile, RunJob } from '../queue/index.js';
import { runBake, runtimeVersions, toolchainsOf, type BakeEvent, type BakeSummary } from '../run/index.js';
import { DEFAULT_SANDBOX, requireTools, sandboxNamed, type Isolation } from '../sandbox/index.js';
import { openStore, type ResultsLock, type Store } from '../store/index.js';
import { loadSuite, readLock, type Suite, type SuiteLock } from '../suite/index.js';
import { openProbeCache } from '../util/index.js';
import type { RunRecord, VoidReason } from '../types.js';
import { BAKEOFF_VERSION } from '../version.js';
import { notifyVia, type NoteEvent, type Notify } from './events.js';
import { isolationFor, SANDBOX_SELF_CHECK } from './isolation-for.js';
import { createLiveRuns } from './live-runs.js';
import { lockResultsFor } from './lock-results-for.js';
import { refuseOtherSuite } from './one-suite-per-folder.js';
import { cacheDirOf, cwdOf, envOf, type Place } from './paths.js';
import { readFailureEvidence } from './failure-evidence.js';
import { pricedUpstream } from './priced-upstream.js';

export interface BakeRequest extends Place {
  /** The suite folder (validated: its lock file says which tasks are admitted). */
  readonly suite: string;
  /** Agent specs: `gold`, `noop`, `patch:<file>`, `command:<cmd>`, `<harness>:<model>[@effort]`. */
  readonly agents: readonly string[];
  /** An agents file of named model agents. */
  readonly agentsFile?: string;
  /** How the `agents` model specs authenticate: an API key (default) or the user's subscription (`bakeoff auth import`). */
  readonly auth?: 'api' | 'subscription';
  /** Where model agents' requests go: `vendor` (default), `openrouter`, a base URL, `scripted:<script>`. */
  readonly upstream?: string;
  /** A prices file overriding the catalog's list prices. */
  readonly prices?: string;
  /** Seconds without a byte from the model API before a request counts as hung (default 120). */
  readonly upstreamIdleTimeoutSec?: number;
  /** Run model agents under strace and flag every address they try other than the proxy. */
  readonly traceNetwork?: boolean;
  /** `patch:` agents on tasks their file does not name: `skip` (default) or `empty` changes. */
  readonly patchMissing?: 'skip' | 'empty';
  /** Runs per (task, agent); default: the suite's `runsPerTask`. */
  readonly runs?: number;
  /** These tasks only (`--task`); the leaderboard says how many of the admitted tasks each agent ran. */
  readonly tasks?: readonly string[];
  /** At most this many tasks (`--limit`): the first admitted ones in suite order (after `tasks`). */
  readonly limit?: number;
  /** The results folder; default `results/<suite id>`. */
  readonly out?: string;
  /**
   * Runs at once: a number, or `auto` (the default; decision 011): the first at once, each
   * further one only while the machine has room, measured, up to its CPUs.
   */
  readonly concurrency?: number | 'auto';
  /** Wait for another process using the results folder to finish, instead of refusing. */
  readonly wait?: boolean;
  /**
   * The sandbox backend agents and tests run in, by name (`sandbox/registry.ts`: `bwrap`, the default, or
   * `unsafe-no-sandbox`, development only). An unknown name is a UserError listing the known ones.
   */
  readonly sandbox?: string;
  /**
   * Run on a fleet: `redis[s]://HOST:PORT[/DB]` (`true`: the one in `BAKEOFF_QUEUE_URL`; a
   * password the URL lacks comes from `BAKEOFF_QUEUE_PASSWORD`). The runs are done by `bakeoff
   * worker`s on that queue; this process plans them, stores each one handed back, and is the
   * results folder's only writer.
   */
  readonly queue?: string | true;
  /** With `queue`: PEM files for a `rediss://` queue (default `BAKEOFF_QUEUE_CA`, `_CERT`, `_KEY`). */
  readonly queueCa?: string;
  readonly queueCert?: string;
  readonly queueKey?: string;
  /** With `queue`: the fleet secret's file (default `BAKEOFF_FLEET_SECRET_FILE`, else `BAKEOFF_FLEET_SECRET`). */
  readonly secretFile?: string;
  /** With `queue`: model sessions at once per model API over the whole fleet (default: no cap). */
  readonly upstreamConcurrency?: number;
  readonly onEvent?: (event: BakeApiEvent) => void;
}

export type BakeApiEvent = BakeEvent | NoteEvent;

export interface BakeOutcome {
  /** The results folder (absolute). */
  readonly results: string;
  readonly suite: { readonly id: string; readonly hash: string };
  readonly summary: BakeSummary;
  /** The leaderboard of every finished run of this suite in the folder (this bake's and earlier ones). */
  readonly view: LeaderboardView;
  /** Runs void because the instrument broke (each also sent as an `error` event). */
  readonly infraErrors: number;
  /** On a fleet (`queue`): runs redone after a worker was lost, attempts abandoned, the coordinator's overheads. */
  readonly fleet?: Omit<FleetSummary, keyof BakeSummary>;
}

/**
 * Everything a bake holds open: the suite and its lock, the agents, the sandbox, the results
 * folder's lock and store. `bake()` opens one, runs the missing runs and closes it; a queue
 * worker opens one per job and runs that job's runs with the same parts.
 */
export interface OpenBake {
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly agents: readonly Agent[];
  readonly isolation: Isolation;
  readonly store: Store;
  readonly resultsLock: ResultsLock;
  /** Versions and sources every run records (bakeoff, node, toolchains, upstream, prices). */
  readonly runtime: Readonly<Record<string, string>>;
  readonly cacheDir: string;
  /** Releases the results folder, closes the store and the model upstream. */
  close(): Promise<void>;
}

/** What a run needs besides a results folder: the suite and its lock, the agents, the sandbox. */
export interface RunParts {
  readonly suite: Suite;
  readonly lock: SuiteLock;
  readonly agents: readonly Agent[];
  readonly isolation: Isolation;
  /** Versions and sources every run records (bakeoff, node, toolchains, upstream, prices). */
  readonly runtime: Readonly<Record<string, string>>;
  readonly cacheDir: string;
  /** Closes the model upstream. */
  close(): Promise<void>;
}

/** What {@link openRunParts} opens: a bake's request, and where the files its specs name are read. */
export type RunPartsRequest = Omit<BakeRequest, 'out' | 'wait' | 'onEvent' | 'queue'> & {
  /** What is read for a file an agent spec, `--upstream scripted:<file>` or `--prices` names (a fleet worker: the signed bundle's copy); default: the file. */
  readonly hostFile?: HostFile;
};

/**
 * Loads and checks what runs need before the first one starts: the suite, its lock, the agents
 * (and their model upstream), the sandbox. A bake opens these once; a queue worker once per
 * suite and agent it is sent. `forbidden` are folders agents must never be given.
 */
export async function openRunParts(request: RunPartsRequest, notify: Notify, forbidden: (suite: Suite) => readonly string[]): Promise<RunParts> {
  if (request.agents.length === 0 && !request.agentsFile) throw new UserError('--agent: expected at least one agent spec (or --agents <file>), received none');
  const cwd = cwdOf(request);
  const cacheDir = cacheDirOf(request);
  const probes = openProbeCache(cacheDir);
  const suite = await loadSuite(path.resolve(cwd, request.suite));
  const lock = await readLock(suite);
  const forbiddenRoots = [suite.dir, cacheDir, path.join(os.tmpdir(), 'bakeoff-scratch'), ...forbidden(suite)];
  const metered = pricedUpstream({ upstream: request.upstream ?? 'vendor', pricesFile: request.prices ? pricesFile(path.resolve(cwd, request.prices), request.hostFile) : undefined, cwd, env: envOf(request) });
  const { agents, upstream } = await resolveAgents(request.agents, {
    cwd,
    forbiddenRoots,
    suiteTasks: new Map(suite.tasks.map((t) => [t.id, t.orders.length])),
    suiteInstances: new Map(suite.tasks.flatMap((t) => (t.manifest.origin?.kind === 'swebench' && t.manifest.origin.id ? [[t.manifest.origin.id, t.id] as const] : []))),
    ...(request.agentsFile ? { agentsFile: request.agentsFile } : {}),
    ...(request.hostFile ? { hostFile: request.hostFile } : {}),
    openUpstream: metered.openUpstream,
    priceOf: metered.priceOf,
    idleTimeoutMs: (request.upstreamIdleTimeoutSec ?? 120) * 1000,
    traceNetwork: request.traceNetwork === true,
    env: envOf(request),
    probes,
    ...(request.auth ? { auth: request.auth } : {}),
  });
  const close = async (): Promise<void> => upstream?.close();
  // the versions of the toolchains the suite's tasks use are asked while the sandbox is checked
  const versions = runtimeVersions(BAKEOFF_VERSION, toolchainsOf(suite.tasks));
  versions.catch(() => {});
  try {
    await requireTools([...new Set(['bwrap', 'git', ...sandboxNamed(request.sandbox ?? DEFAULT_SANDBOX).requires, ...(request.traceNetwork ? ['strace'] : [])])]);
    const isolation = await isolationFor(suite.controls, request.sandbox ?? DEFAULT_SANDBOX, notify, probes);
    const modelRuntime: Record<string, string> = upstream && metered.pricesSource() !== undefined ? { upstream: upstream.name, prices: metered.pricesSource()! } : {};
    const runtime = { ...(await versions), ...modelRuntime };
    return { suite, lock, agents, isolation, runtime, cacheDir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The prices file to read for `--prices` (see {@link RunPartsRequest.hostFile}). */
function pricesFile(named: string, hostFile: HostFile | undefined): string {
  if (!hostFile) return named;
  const file = hostFile(named);
  if (file === null) throw new UserError(`--prices ${named}: expected a prices file there, found none`);
  return file;
}

/** Opens a bake: loads and checks everything a run needs before the first run starts. */
export async function openBake(request: BakeRequest & Pick<RunPartsRequest, 'hostFile'>): Promise<OpenBake> {
  const notify = notifyVia(request.onEvent);
  const cwd = cwdOf(request);
  const outOf = (suite: Suite) => path.resolve(cwd, request.out ?? path.join('results', suite.id));
  const parts = await openRunParts(request, notify, (suite) => [outOf(suite)]);
  const undo: (() => Promise<void> | void)[] = [() => parts.close()];
  const unwind = async (): Promise<void> => {
    for (const step of undo.reverse()) await step();
  };
  try {
    // One bakeoff per results folder, from before the store is opened (which clears runs/.tmp-*) to the end.
    const resultsLock = await lockResultsFor(outOf(parts.suite), { command: 'run', create: true, wait: request.wait === true, notes: notify });
    undo.push(() => resultsLock.release());
    const store = openStore(outOf(parts.suite), { create: true, intact: openProbeCache(parts.cacheDir) });
    undo.push(() => store.close());
    refuseOtherSuite(store, parts.suite, cwd);
    return { ...parts, store, resultsLock, close: unwind };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/**
 * `bakeoff run`: plans the runs the results folder still lacks (so the same call resumes),
 * runs them, stores each as it ends, and returns the leaderboard of the folder's runs.
 */
export async function bake(request: BakeRequest): Promise<BakeOutcome> {
  const notify = notifyVia(request.onEvent);
  if (request.queue === undefined && request.upstreamConcurrency !== undefined) throw new UserError('--upstream-concurrency: only with --queue (it caps sessions over a whole fleet; a local bake has --concurrency)');
  const fleet = request.queue === undefined ? undefined : await fleetOf(request);
  const open = await openBake({ ...request, ...(fleet ? { hostFile: fleet.files.hostFile } : {}) });
  let undoLive = (): void => {};
  try {
    const address = fleet?.address;
    const selection: TaskSelection = { ...(request.tasks && request.tasks.length > 0 ? { tasks: request.tasks } : {}), ...(request.limit !== undefined ? { limit: request.limit } : {}) };
    const picked = selectTasks(open.suite.tasks.map((t) => t.id), new Set(Object.entries(open.lock.tasks).flatMap(([id, v]) => (v.admitted ? [id] : []))), selection);
    for (const id of picked.rejected) notify.note(`--task ${id}: not admitted by validate, so not run`);
    if (selection.tasks || selection.limit !== undefined) {
      notify.note(`running ${picked.tasks.length} of the suite's admitted tasks (${picked.tasks.join(', ') || 'none'}): the leaderboard says how many tasks each agent ran until the rest are baked`);
    }
    if (address && open.suite.controls.agentBudget?.scope === 'replay') {
      throw new UserError(`${open.suite.id}: controls.agentBudget.scope is "replay" (one agent's time shared over all its runs of a replay), which a fleet cannot hold across machines: run it locally, or use scope "run"`);
    }
    let infraErrors = 0;
    const live = createLiveRuns(open.store.dir);
    undoLive = () => live.close();
    const onEvent = (event: BakeEvent): void => {
        live.onEvent(event);
        if (event.type === 'plan') for (const r of event.rejected) notify.note(`skipping ${r.task}: rejected by validate (${r.reason})`);
        if (event.type === 'prepare' && !event.ok) notify.error(`setup failed for ${event.task}: its runs are void (${event.reason ?? 'no reason given'})`);
        if (event.type === 'prepare' && event.ok && !event.cached) notify.note(`set up ${event.task}`);
        request.onEvent?.(event);
        if (event.type === 'run-end' && event.error && infraErrors++ === 0) {
          // the instrument broke: the next command checks the sandbox again instead of trusting the kept verdict
          openProbeCache(open.cacheDir).forget(SANDBOX_SELF_CHECK);
        }
        if (event.type === 'run-end') {
          const said = voidSaid(event.record, event.error?.message);
          if (said) notify.error(said);
        }
    };
    const common = {
      suite: open.suite,
      lock: open.lock,
      agents: open.agents,
      ...(request.runs ? { runsPerTask: request.runs } : {}),
      ...(request.patchMissing ? { patchMissing: request.patchMissing } : {}),
      selection,
      store: open.store,
      runtime: open.runtime,
      onEvent,
    };
    let fleetSummary: BakeOutcome['fleet'];
    let summary: BakeSummary;
    if (fleet && address) {
      // the queue client (BullMQ, ioredis) is loaded for a fleet bake only
      const { coordinate } = await import('../queue/index.js');
      const { planned, alreadyDone, ran, rejected, ...rest } = await coordinate({
        ...common,
        address,
        seal: fleet.seal,
        agentSpecs: request.agents,
        agentOptions: agentOptionsOf(request),
        agentFiles: fleet.files.files(),
        ...(request.upstreamConcurrency ? { upstreamConcurrency: request.upstreamConcurrency } : {}),
        notes: notify,
      });
      summary = { planned, alreadyDone, ran, rejected };
      fleetSummary = rest;
    } else {
      summary = await runBake({ ...common, concurrency: request.concurrency ?? 'auto', resultsLock: open.resultsLock, isolation: open.isolation, cacheDir: open.cacheDir });
    }
    const { suite, lock } = open;
    const runs = open.store.listRuns().filter((r) => r.suiteHash === suite.hash);
    const admitted = suite.tasks.filter((t) => lock.tasks[t.id]?.admitted === true).map((t) => t.id);
    const view = summarize(runs, { standardRunsPerTask: suite.controls.runsPerTask, controls: suite.controls, tasks: admitted, evidence: await readFailureEvidence(open.store, runs) });
    return { results: open.store.dir, suite: { id: suite.id, hash: suite.hash }, summary, view, infraErrors, ...(fleetSummary ? { fleet: fleetSummary } : {}) };
  } finally {
    undoLive();
    await open.close();
  }
}

/**
 * `queue`: checked before anything is opened — the address, the fleet secret (jobs are signed
 * with it), and what a fleet cannot run the way a local bake does is refused. The files the
 * agent specs name are recorded as they are read, to travel in the signed bundle. The queue
 * client (BullMQ, ioredis) is loaded here, for a fleet bake only.
 */
async function fleetOf(request: BakeRequest): Promise<{ readonly address: QueueAddress; readonly seal: FleetSeal; readonly files: ReturnType<typeof recordingHostFile> }> {
  const { createFleetSeal, queueAddressOf, readFleetSecret, recordingHostFile } = await import('../queue/index.js');
  const cwd = cwdOf(request);
  const env = envOf(request);
  const address = await queueAddressOf({
    ...(request.queue !== true && request.queue !== undefined ? { queue: request.queue } : {}),
    ...(request.queueCa ? { queueCa: request.queueCa } : {}),
    ...(request.queueCert ? { queueCert: request.queueCert } : {}),
    ...(request.queueKey ? { queueKey: request.queueKey } : {}),
    env,
    cwd,
  });
  if (request.agentsFile) throw new UserError('--agents with --queue: a fleet resolves each agent from its spec on every worker; give the agents as --agent specs');
  if (request.upstreamConcurrency !== undefined && (!Number.isInteger(request.upstreamConcurrency) || request.upstreamConcurrency < 1)) {
    throw new UserError(`--upstream-concurrency: expected a whole number >= 1, received ${JSON.stringify(request.upstreamConcurrency)}`);
  }
  if (request.sandbox !== undefined && request.sandbox !== DEFAULT_SANDBOX) {
    throw new UserError(`${request.sandbox === 'unsafe-no-sandbox' ? '--unsafe-no-sandbox' : `--sandbox ${request.sandbox}`} with --queue: a fleet always runs in the ${DEFAULT_SANDBOX} sandbox (workers check theirs when they start)`);
  }
  const onPlan = request.auth === 'subscription' ? request.agents.filter((spec) => parseHarnessSpec(spec) !== null) : [];
  if (onPlan.length > 0) {
    // one login refreshed in one place: a worker's copy that refreshes rotates the token under every other copy
    throw new UserError(
      `--auth subscription with --queue: ${onPlan.join(', ')} would run on each worker's own copy of your subscription login, and a login's refresh token ` +
        `is single-use and rotates (Codex's always): the first worker to refresh it invalidates the copy on every other worker and the one you imported. ` +
        `bakeoff keeps logins out of the queue's Redis, so it cannot refresh for the whole fleet in one place: run subscription agents in a local bake (without --queue), or with an API key (--auth api)`,
    );
  }
  const seal = createFleetSeal(await readFleetSecret({ ...(request.secretFile ? { secretFile: request.secretFile } : {}), env, cwd }));
  return { address, seal, files: recordingHostFile() };
}

/** What a worker resolves an agent spec with: the coordinator's paths, made absolute. */
function agentOptionsOf(request: BakeRequest): RunJob['agentOptions'] {
  const cwd = cwdOf(request);
  return {
    cwd,
    ...(request.upstream ? { upstream: request.upstream } : {}),
    ...(request.auth ? { auth: request.auth } : {}),
    ...(request.prices ? { prices: path.resolve(cwd, request.prices) } : {}),
    ...(request.upstreamIdleTimeoutSec ? { upstreamIdleTimeoutSec: request.upstreamIdleTimeoutSec } : {}),
    ...(request.traceNetwork ? { traceNetwork: true } : {}),
  };
}

/**
 * One rule for every void run: it is said on stderr once, in every mode (--json too), with its
 * reason and what the evidence says — a void run is the instrument or the provider failing, and a
 * user reading only the leaderboard would not see it. A failed setup is said once for its task
 * (the prepare event), not again for each of its runs.
 */
function voidSaid(record: RunRecord, error: string | undefined): string | null {
  const { id, task, agent, outcome } = record;
  if (error) return `run ${id} (${task}, ${agent.id}) is void: ${error}`;
  if (outcome.kind !== 'void' || outcome.reason === 'setup-failed') return null;
  return `run ${id} (${task}, ${agent.id}) is void ${outcome.reason}: ${outcome.detail ?? VOID_SAID[outcome.reason] ?? 'see the run\'s evidence (bakeoff report --runs)'}`;
}

const VOID_SAID: Partial<Record<VoidReason, string>> = {
  'provider-tool-used': 'a model answer showed that the provider ran a tool the closed-web policy should have withheld',
  'machine-starved': 'the machine held the session back from a CPU until its clock ran out; re-running the same command redoes it',
};
