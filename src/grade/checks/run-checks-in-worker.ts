import type { CheckWorkerData, CheckWorkerRequest, VmOutcome } from './check-worker-protocol.js';
import { startCheckWorker, type CheckWorker, type HostBackstop } from './start-check-worker.js';

export interface RunChecksInWorkerOptions {
  readonly data: CheckWorkerData;
  readonly requests: readonly CheckWorkerRequest[];
  /** The host's limits per check, beyond the VM's own budget. */
  readonly backstop: HostBackstop;
  /** The worker file; defaults to the one resolveCheckWorker finds. */
  readonly workerUrl?: URL;
}

/**
 * Runs the checks one after another in a check worker. When a check ends its worker (the
 * backstop fired, or the worker broke or died), the remaining checks go to a new worker, so a
 * failure affects only its own check.
 * @returns one outcome per request, in order.
 * @throws Error when a worker cannot start at all.
 */
export async function runChecksInWorker(options: RunChecksInWorkerOptions): Promise<VmOutcome[]> {
  const outcomes: VmOutcome[] = [];
  let worker: CheckWorker | undefined;
  try {
    while (outcomes.length < options.requests.length) {
      worker ??= await startCheckWorker({ data: options.data, backstop: options.backstop, ...(options.workerUrl ? { workerUrl: options.workerUrl } : {}) });
      const run = await worker.run(options.requests.slice(outcomes.length));
      outcomes.push(...run.outcomes);
      if (!run.reusable) {
        await worker.stop();
        worker = undefined;
      }
    }
  } finally {
    await worker?.stop();
  }
  return outcomes;
}
