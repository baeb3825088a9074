import { Worker } from 'node:worker_threads';
import type { CheckWorkerData, CheckWorkerMessage, CheckWorkerRequest, VmOutcome } from './check-worker-protocol.js';
import { resolveCheckWorker } from './resolve-check-worker.js';

/**
 * QuickJS's 1 MiB stack limit only holds when the host thread has room beyond it: on the
 * main thread (about 1 MB of V8 stack) deep recursion overflows the host first and the runtime
 * can no longer be disposed. 8 MB was measured to work.
 */
const WORKER_STACK_MB = 8;
/** Keeps the end of the worker's stderr (Emscripten prints aborts there) for messages. */
const STDERR_TAIL_CHARS = 2000;

/** The outcomes of a batch of checks, and whether the worker may run more. */
export interface CheckWorkerRun {
  /**
   * One outcome per check, in order. Shorter than the batch when a check ended the worker
   * (the backstop fired, or the worker broke or died): that check's outcome is the last one.
   */
  readonly outcomes: readonly VmOutcome[];
  /** False after a check ended the worker; start a new one for the rest of the batch. */
  readonly reusable: boolean;
}

/** A started check worker; it runs one batch at a time, one check after another. */
export interface CheckWorker {
  /** Runs a batch of checks. Never rejects: a worker that dies or hangs becomes a failed check. */
  run(requests: readonly CheckWorkerRequest[]): Promise<CheckWorkerRun>;
  /** Terminates the worker. */
  stop(): Promise<void>;
}

export interface StartCheckWorkerOptions {
  readonly data: CheckWorkerData;
  /** Host timer per check; when it fires the worker is terminated and the check times out. */
  readonly backstopMs: number;
  /** How long loading the WASM module may take before starting counts as broken. */
  readonly startupTimeoutMs?: number;
  /** The worker file; defaults to {@link resolveCheckWorker}. */
  readonly workerUrl?: URL;
}

type WorkerEvent = CheckWorkerMessage | { readonly type: 'died'; readonly message: string };
type Listener = (event: WorkerEvent) => void;

/**
 * Starts a check worker and waits until it has loaded the QuickJS WASM module.
 * @throws Error when the worker cannot start (the instrument is broken, not the program).
 */
export async function startCheckWorker(options: StartCheckWorkerOptions): Promise<CheckWorker> {
  const worker = new Worker(options.workerUrl ?? resolveCheckWorker(), {
    workerData: options.data,
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    execArgv: [],
    stdout: true,
    stderr: true,
  });
  let stderr = '';
  worker.stdout.resume();
  worker.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  /** Receives every message, error and exit; replaced per phase. */
  let listener: Listener = () => undefined;
  const died = (message: string) => listener({ type: 'died', message: stderr.trim() ? `${message}; stderr: ${stderr.trim()}` : message });
  worker.on('message', (message: CheckWorkerMessage) => listener(message));
  worker.on('error', (error) => died(`the check worker threw ${error.name}: ${error.message}`));
  worker.on('exit', (code) => died(`the check worker exited with code ${code}`));

  const startupTimeoutMs = options.startupTimeoutMs ?? 30_000;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`the check worker did not start within ${startupTimeoutMs} ms`));
    }, startupTimeoutMs);
    listener = (event) => {
      clearTimeout(timer);
      listener = () => undefined;
      if (event.type === 'ready') resolve();
      else reject(new Error(`the check worker failed to start: ${'message' in event ? event.message : `unexpected message ${event.type}`}`));
    };
  });

  return {
    run: (requests) => runBatch(worker, requests, options.backstopMs, (l) => (listener = l)),
    stop: async () => {
      listener = () => undefined;
      await worker.terminate();
    },
  };
}

/**
 * Sends the whole batch at once (a round trip per check costs about 2 ms on a 1-core VM) and
 * restarts the backstop timer whenever an outcome arrives, since the worker then starts the
 * next check.
 */
function runBatch(worker: Worker, requests: readonly CheckWorkerRequest[], backstopMs: number, listen: (l: Listener) => void): Promise<CheckWorkerRun> {
  const outcomes: VmOutcome[] = [];
  if (requests.length === 0) return Promise.resolve({ outcomes, reusable: true });
  return new Promise((resolve) => {
    let started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const finish = (reusable: boolean) => {
      clearTimeout(timer);
      listen(() => undefined);
      resolve({ outcomes, reusable });
    };
    const fail = (failure: 'timeout' | 'code-error', message: string) => {
      outcomes.push({ kind: 'failure', failure, message, durationMs: performance.now() - started });
      finish(false);
    };
    const arm = () => {
      clearTimeout(timer);
      started = performance.now();
      timer = setTimeout(() => {
        void worker.terminate();
        fail(
          'timeout',
          `the check ran past the host backstop of ${backstopMs} ms (time spent where the interrupt handler cannot stop it, e.g. in native code or garbage collection); its worker was terminated`,
        );
      }, backstopMs);
    };
    listen((event) => {
      if (event.type === 'outcome') {
        outcomes.push(event.outcome);
        if (outcomes.length === requests.length) finish(true);
        else arm();
      } else if (event.type === 'broken') fail('code-error', `the grader's QuickJS runtime failed on this check: ${event.message}`);
      else if (event.type === 'died') fail('code-error', `the grader's QuickJS worker died on this check: ${event.message}`);
    });
    arm();
    worker.postMessage({ requests });
  });
}
