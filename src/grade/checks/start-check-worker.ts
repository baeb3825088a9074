import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WORKER_STATE, type CheckWorkerData, type CheckWorkerMessage, type CheckWorkerRequest, type VmOutcome } from './check-worker-protocol.js';
import { compiledQuickJS } from './compile-quickjs.js';
import { openTaskCpuClock, type TaskCpuClock } from './task-cpu-clock.js';

/**
 * QuickJS's 1 MiB stack limit only holds when the host thread has room beyond it: on the
 * main thread (about 1 MB of V8 stack) deep recursion overflows the host first and the runtime
 * can no longer be disposed. 8 MB was measured to work.
 */
const WORKER_STACK_MB = 8;
/** Keeps the end of the worker's stderr (Emscripten prints aborts there) for messages. */
const STDERR_TAIL_CHARS = 2000;
/** Shortest wait between two looks of the host backstop at a running check. */
const MIN_POLL_MS = 20;

/** The outcomes of a batch of checks, and whether the worker may run more. */
export interface CheckWorkerRun {
  /**
   * The outcomes of the first checks of the batch, in order: all of them, unless a check ended
   * the worker (the backstop fired, or the worker broke or died).
   */
  readonly outcomes: readonly VmOutcome[];
  /**
   * The check that ended the worker, by its index in the batch, and its outcome. Checks between
   * the last of `outcomes` and this one had ended but their outcomes were not sent yet (the
   * worker sends a few at a time): run them again.
   */
  readonly ended?: { readonly index: number; readonly outcome: VmOutcome };
  /** False after a check ended the worker; start a new one for the rest of the batch. */
  readonly reusable: boolean;
}

/** A started check worker; it runs one batch at a time, one check after another. */
export interface CheckWorker {
  /** Runs a batch of checks of the program it was started or last bound with. Never rejects: a worker that dies or hangs becomes a failed check. */
  run(requests: readonly CheckWorkerRequest[]): Promise<CheckWorkerRun>;
  /**
   * The same thread for another program and its limits: QuickJS stays loaded (starting a worker
   * costs far more than a batch of 32 checks), and each check still runs in a fresh runtime and
   * context, as every check of one program does.
   */
  bind(data: CheckWorkerData, backstop: HostBackstop): void;
  /** False once the thread has exited or been terminated (a check ended it): never run again. */
  readonly alive: boolean;
  /** Whether the worker keeps the process alive: false while it idles in a pool. */
  hold(on: boolean): void;
  /** Terminates the worker. */
  stop(): Promise<void>;
  /** The worker thread's kernel thread id, when the worker reported it. */
  readonly tid: number | undefined;
}

/**
 * The host's limits per check, beyond the VM's own (which stop a check cleanly from inside).
 * When one is passed the worker is terminated and the check fails.
 */
export interface HostBackstop {
  /** CPU time of the worker thread (`timeout`): catches time the interrupt handler cannot see. */
  readonly cpuMs: number;
  /** Wall time (`wall-backstop`): catches a worker that gets no CPU, or no longer polls at all. */
  readonly wallMs: number;
}

export interface StartCheckWorkerOptions {
  readonly data: CheckWorkerData;
  readonly backstop: HostBackstop;
  /** How long loading the WASM module may take before starting counts as broken. */
  readonly startupTimeoutMs?: number;
  /** The worker file; defaults to {@link resolveCheckWorker}. */
  readonly workerUrl?: URL;
}

type WorkerEvent = CheckWorkerMessage | { readonly type: 'died'; readonly message: string };
type Listener = (event: WorkerEvent) => void;

/**
 * Starts a check worker on the process's compiled QuickJS module and waits until it has
 * instantiated it.
 * @throws Error when the worker cannot start (the instrument is broken, not the program).
 */
export async function startCheckWorker(options: StartCheckWorkerOptions): Promise<CheckWorker> {
  const wasmModule = options.data.wasmModule ?? (await compiledQuickJS());
  const state = new SharedArrayBuffer(WORKER_STATE.bytes);
  new Int32Array(state, 0, 2)[WORKER_STATE.running] = -1;
  const worker = new Worker(options.workerUrl ?? resolveCheckWorker(), {
    workerData: { wasmModule, state },
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    execArgv: [],
    stdout: true,
    stderr: true,
  });
  // Neither stream is read while the worker lives: a stdio stream that is read keeps the process
  // alive even after `unref()`, and an idle worker must not. Nothing in the VM prints (its
  // console is a no-op); stderr is read once the worker is gone, for the message.
  worker.stderr.setEncoding('utf8');
  const stderrTail = (): string => String(worker.stderr.read() ?? '').slice(-STDERR_TAIL_CHARS).trim();
  /** Receives every message, error and exit; replaced per phase. */
  let listener: Listener = () => undefined;
  const died = (message: string) => {
    const stderr = stderrTail();
    listener({ type: 'died', message: stderr ? `${message}; stderr: ${stderr}` : message });
  };
  worker.on('message', (message: CheckWorkerMessage) => listener(message));
  worker.on('error', (error) => died(`the check worker threw ${error.name}: ${error.message}`));
  let alive = true;
  worker.on('exit', (code) => {
    alive = false;
    died(`the check worker exited with code ${code}`);
  });

  const startupTimeoutMs = options.startupTimeoutMs ?? 30_000;
  const tid = await new Promise<number | undefined>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the check worker did not start within ${startupTimeoutMs} ms`));
    }, startupTimeoutMs);
    listener = (event) => {
      clearTimeout(timer);
      listener = () => undefined;
      if (event.type === 'ready') resolve(event.tid);
      else reject(new Error(`the check worker failed to start: ${'message' in event ? event.message : `unexpected message ${event.type}`}`));
    };
  });

  const clock = tid === undefined ? undefined : openTaskCpuClock(tid);
  let { data, backstop } = options;
  return {
    tid,
    get alive() {
      return alive;
    },
    bind: (nextData, nextBackstop) => {
      data = nextData;
      backstop = nextBackstop;
    },
    hold: (on) => (on ? worker.ref() : worker.unref()),
    run: (requests) =>
      runBatch({ worker, clock, state, backstop, program: { files: data.files, entry: data.entry, limits: data.limits } }, requests, (l) => (listener = l), () => {
        // a check that ended the worker: it never runs another batch
        alive = false;
      }),
    stop: async () => {
      alive = false;
      listener = () => undefined;
      clock?.close();
      await worker.terminate();
    },
  };
}

interface Watched {
  readonly worker: Worker;
  readonly clock: TaskCpuClock | undefined;
  /** Which check the worker runs and since when (WORKER_STATE). */
  readonly state: SharedArrayBuffer;
  readonly backstop: HostBackstop;
  /** The program the batch's checks call (sent with the batch: a thread serves many programs). */
  readonly program: Omit<CheckWorkerData, 'wasmModule'>;
}

/**
 * Sends the whole batch at once (a round trip per check costs about 2 ms on a 1-core VM) and
 * takes the outcomes as the worker sends them, a few at a time. The backstop reads from the
 * shared state which check runs and since when (CPU clock and hrtime, written by the worker when
 * the check starts), and looks at it when its CPU or wall limit could first have passed (the
 * thread's CPU time cannot grow faster than wall time), and again until one has. Between checks,
 * and for a worker that does not write the state, the reference is the host's own: when the
 * batch was sent or the last outcomes arrived.
 */
function runBatch({ worker, clock, state, backstop, program }: Watched, requests: readonly CheckWorkerRequest[], listen: (l: Listener) => void, ended: () => void): Promise<CheckWorkerRun> {
  const outcomes: VmOutcome[] = [];
  if (requests.length === 0) return Promise.resolve({ outcomes, reusable: true });
  const counters = new Int32Array(state, 0, 2);
  const started = new Float64Array(state);
  const hrMs = (): number => Number(process.hrtime.bigint()) / 1e6;
  // the worker rewrites these when the batch's first check starts
  Atomics.store(counters, WORKER_STATE.running, -1);
  Atomics.store(counters, WORKER_STATE.ended, 0);
  return new Promise((resolve) => {
    let own = { index: 0, cpuStartNs: clock?.readNs(), startedMs: hrMs() };
    let timer: NodeJS.Timeout | undefined;
    /** The check running now (or next) and when it started. */
    const current = (): { index: number; cpuStartNs: number | undefined; startedMs: number } => {
      const index = Atomics.load(counters, WORKER_STATE.running);
      if (index >= 0) {
        const cpuStartNs = started[WORKER_STATE.cpuStartNs]!;
        const startedMs = started[WORKER_STATE.startedMs]!;
        if (Atomics.load(counters, WORKER_STATE.running) === index) return { index, cpuStartNs, startedMs };
      }
      return { ...own, index: Math.max(own.index, Atomics.load(counters, WORKER_STATE.ended), outcomes.length) };
    };
    const finish = (reusable: boolean, end?: CheckWorkerRun['ended']) => {
      clearTimeout(timer);
      listen(() => undefined);
      if (!reusable) ended();
      resolve({ outcomes, reusable, ...(end ? { ended: end } : {}) });
    };
    const fail = (failure: 'timeout' | 'wall-backstop' | 'code-error', message: string, check = current(), cpu = cpuSince(check.cpuStartNs)) => {
      const index = Math.max(check.index, outcomes.length);
      // every check had ended and only their outcomes were still to come: none failed, all run again
      if (index >= requests.length) return finish(false);
      finish(false, { index, outcome: { kind: 'failure', failure, message, durationMs: hrMs() - check.startedMs, ...(cpu === undefined ? {} : { cpuMs: cpu }) } });
    };
    const cpuSince = (cpuStartNs: number | undefined): number | undefined => {
      const now = clock?.readNs();
      return now === undefined || cpuStartNs === undefined ? undefined : (now - cpuStartNs) / 1e6;
    };
    const look = () => {
      const check = current();
      const wall = hrMs() - check.startedMs;
      const cpu = cpuSince(check.cpuStartNs);
      if (cpu !== undefined && cpu >= backstop.cpuMs) {
        void worker.terminate();
        fail('timeout', `the check used ${Math.round(cpu)} ms of CPU time, past the host's CPU backstop of ${backstop.cpuMs} ms, in code the interrupt handler cannot stop (native code or garbage collection); its worker was terminated`, check, cpu);
      } else if (wall >= backstop.wallMs) {
        void worker.terminate();
        const used = cpu === undefined ? 'its CPU time could not be read' : `it had used ${Math.round(cpu)} ms of CPU time, under the host's CPU backstop of ${backstop.cpuMs} ms`;
        fail('wall-backstop', `the check ran past the host's wall-clock backstop of ${backstop.wallMs} ms, not its CPU limit (${used}; the machine gave it too little CPU, or the worker stopped); its worker was terminated`, check, cpu);
      } else {
        const untilCpu = cpu === undefined ? Infinity : backstop.cpuMs - cpu;
        timer = setTimeout(look, Math.max(MIN_POLL_MS, Math.min(untilCpu, backstop.wallMs - wall)));
      }
    };
    const received = (more: readonly VmOutcome[]) => {
      outcomes.push(...more);
      if (outcomes.length >= requests.length) return finish(true);
      // between checks (or a worker that does not write the state): the host's own reference
      if (Atomics.load(counters, WORKER_STATE.running) < 0) own = { index: outcomes.length, cpuStartNs: clock?.readNs(), startedMs: hrMs() };
    };
    listen((event) => {
      if (event.type === 'outcomes') received(event.outcomes);
      else if (event.type === 'broken') fail('code-error', `the grader's QuickJS runtime failed on this check: ${event.message}`);
      else if (event.type === 'died') fail('code-error', `the grader's QuickJS worker died on this check: ${event.message}`);
    });
    timer = setTimeout(look, Math.max(MIN_POLL_MS, Math.min(backstop.cpuMs, backstop.wallMs)));
    worker.postMessage({ program, requests });
  });
}

/** The worker's file name; it lives in `src/grade/checks/` as plain JavaScript. */
export const CHECK_WORKER_FILE = 'check-worker.mjs';

/**
 * The URL of the check worker (`check-worker.mjs`), found from the calling module's URL.
 *
 * From `src/grade/checks/*.ts` (vitest) it sits next to the caller. From the compiled
 * `dist/grade/checks/*.js` it would be there too, but tsc does not copy `.mjs` files, so the
 * fallback is the source folder `../../../src/grade/checks/` (package.json `files` must ship
 * it, as it ships `src/runners/reporters`).
 *
 * @param from - URL of a module in `grade/checks/`; defaults to this module.
 * @throws Error when neither folder holds the worker.
 */
export function resolveCheckWorker(from: string = import.meta.url): URL {
  const candidates = [new URL(`./${CHECK_WORKER_FILE}`, from), new URL(`../../../src/grade/checks/${CHECK_WORKER_FILE}`, from)];
  const found = candidates.find((candidate) => existsSync(fileURLToPath(candidate)));
  if (found) return found;
  const tried = candidates.map((c) => fileURLToPath(c)).join(', ');
  throw new Error(`bakeoff's check worker was not found: expected one of ${tried}`);
}
