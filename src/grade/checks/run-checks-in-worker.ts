import type { CheckWorkerData, CheckWorkerRequest, VmOutcome } from './check-worker-protocol.js';
import { resolveCheckWorker, startCheckWorker, type CheckWorker, type HostBackstop } from './start-check-worker.js';

export interface RunChecksInWorkerOptions {
  readonly data: CheckWorkerData;
  readonly requests: readonly CheckWorkerRequest[];
  /** The host's limits per check, beyond the VM's own budget. */
  readonly backstop: HostBackstop;
  /** The worker file; defaults to the one resolveCheckWorker finds. */
  readonly workerUrl?: URL;
}

/**
 * Runs the checks one after another in a check worker, an idle one when there is one. When a
 * check ends its worker (the backstop fired, or the worker broke or died), the remaining checks
 * go to a new worker, so a failure affects only its own check; so do the checks before it whose
 * outcomes the worker had not sent yet.
 * @returns one outcome per request, in order.
 * @throws Error when a worker cannot start at all.
 */
export async function runChecksInWorker(options: RunChecksInWorkerOptions): Promise<VmOutcome[]> {
  const { requests } = options;
  const outcomes: Array<VmOutcome | undefined> = new Array<VmOutcome | undefined>(requests.length).fill(undefined);
  let next = 0;
  let worker: CheckWorker | undefined;
  try {
    while (next < requests.length) {
      // the checks from `next` up to the first one a worker already ended
      let end = next;
      while (end < requests.length && outcomes[end] === undefined) end++;
      worker ??= idleWorker(options) ?? (await startCheckWorker({ data: options.data, backstop: options.backstop, ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}) }));
      const run = await worker.run(requests.slice(next, end));
      run.outcomes.forEach((outcome, i) => (outcomes[next + i] = outcome));
      if (run.ended) outcomes[next + run.ended.index] = run.ended.outcome;
      if (!run.reusable) {
        await worker.stop();
        worker = undefined;
      }
      while (next < requests.length && outcomes[next] !== undefined) next++;
    }
  } finally {
    if (worker) await putBack(worker, options);
  }
  return outcomes as VmOutcome[];
}

/**
 * Check workers that finished a batch with their thread intact, by worker file, waiting for the
 * next call (a grading runs checks once per order, a calibration validate hundreds of times):
 * starting a worker, its thread and QuickJS with it, costs about 100–250 ms, a batch of 32
 * checks about 15 ms. Idle workers do not keep the process alive.
 */
const idle = new Map<string, CheckWorker[]>();
/** Most workers kept idle per worker file: more than the gradings that run checks at once is memory for nothing. */
const MAX_IDLE = 4;

function idleWorker(options: RunChecksInWorkerOptions): CheckWorker | undefined {
  const waiting = idle.get(workerKey(options));
  for (let worker = waiting?.pop(); worker !== undefined; worker = waiting?.pop()) {
    if (!worker.alive) continue;
    worker.bind(options.data, options.backstop);
    worker.hold(true);
    return worker;
  }
  return undefined;
}

async function putBack(worker: CheckWorker, options: RunChecksInWorkerOptions): Promise<void> {
  const key = workerKey(options);
  const waiting = idle.get(key) ?? [];
  if (!worker.alive || waiting.length >= MAX_IDLE) return worker.stop();
  worker.hold(false);
  waiting.push(worker);
  idle.set(key, waiting);
}

let defaultWorker: string | undefined;
function workerKey(options: RunChecksInWorkerOptions): string {
  return options.workerUrl?.href ?? (defaultWorker ??= resolveCheckWorker().href);
}
