import { startCheckWorker, type CheckWorker } from './start-check-worker.js';

/*
 * Check workers outlive the batch they ran: starting one (a thread, Node's bootstrap in it, the
 * QuickJS module instantiated) costs more than a whole order of 32 checks. Idle workers wait
 * here, per worker file, and serve the next batch — of the same program or another. What one
 * batch could leave behind in a worker does not reach the next one's results: every check runs
 * in a fresh QuickJS runtime and context with its own memory limit, stack limit and CPU budget
 * (measured from the check's start on the thread's CPU clock); a worker whose host side broke
 * (an Emscripten abort, a leaked handle) or that a backstop terminated is never put back. Idle
 * workers are unref'd: they never keep bakeoff running.
 */

/** Idle workers kept per worker file; more are stopped when they come back. */
export const MAX_IDLE_WORKERS = 2;

const idle = new Map<string, CheckWorker[]>();

/** An idle worker of `workerUrl` (default: bakeoff's check worker), or a new one. */
export async function acquireCheckWorker(options: { readonly workerUrl?: URL; readonly wasmModule?: WebAssembly.Module } = {}): Promise<CheckWorker> {
  const waiting = idle.get(keyOf(options.workerUrl)) ?? [];
  for (let worker = waiting.pop(); worker; worker = waiting.pop()) {
    if (worker.alive) return worker;
    await worker.stop();
  }
  return startCheckWorker(options);
}

/** Hands a worker back: kept for the next batch when `reusable` and alive and the pool has room, else stopped. */
export async function releaseCheckWorker(worker: CheckWorker, reusable: boolean, workerUrl?: URL): Promise<void> {
  const key = keyOf(workerUrl);
  const waiting = idle.get(key) ?? [];
  if (reusable && worker.alive && waiting.length < MAX_IDLE_WORKERS) {
    waiting.push(worker);
    idle.set(key, waiting);
    return;
  }
  await worker.stop();
}

/** Stops every idle worker (tests; a process that wants its threads gone now). */
export async function stopIdleCheckWorkers(): Promise<void> {
  const all = [...idle.values()].flat();
  idle.clear();
  await Promise.all(all.map((worker) => worker.stop()));
}

function keyOf(workerUrl: URL | undefined): string {
  return workerUrl?.href ?? 'bakeoff';
}
