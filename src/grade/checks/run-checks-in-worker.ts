import type { CheckWorkerData, CheckWorkerRequest, VmOutcome } from './check-worker-protocol.js';
import { acquireCheckWorker, releaseCheckWorker } from './check-worker-pool.js';
import type { CheckWorker, HostBackstop } from './start-check-worker.js';

export interface RunChecksInWorkerOptions {
  readonly data: CheckWorkerData;
  readonly requests: readonly CheckWorkerRequest[];
  /** The host's limits per check, beyond the VM's own budget. */
  readonly backstop: HostBackstop;
  /** The worker file; defaults to the one resolveCheckWorker finds. */
  readonly workerUrl?: URL;
}

/**
 * Runs the checks one after another in a check worker from the pool (check-worker-pool.ts).
 * When a check ends its worker (the backstop fired, or the worker broke or died), the
 * remaining checks go to a new worker, so a failure affects only its own check.
 * @returns one outcome per request, in order.
 * @throws Error when a worker cannot start at all.
 */
export async function runChecksInWorker(options: RunChecksInWorkerOptions): Promise<VmOutcome[]> {
  const { wasmModule, ...program } = options.data;
  const start = { ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}), ...(wasmModule ? { wasmModule } : {}) };
  const outcomes: VmOutcome[] = [];
  let worker: CheckWorker | undefined;
  let reusable = true;
  try {
    while (outcomes.length < options.requests.length) {
      worker ??= await acquireCheckWorker(start);
      const run = await worker.run({ program, requests: options.requests.slice(outcomes.length), backstop: options.backstop });
      outcomes.push(...run.outcomes);
      if (!run.reusable) {
        await worker.stop();
        worker = undefined;
      }
    }
  } catch (error) {
    reusable = false;
    throw error;
  } finally {
    if (worker) await releaseCheckWorker(worker, reusable, options.workerUrl);
  }
  return outcomes;
}
