/*
 * What bakeoff undoes when it is told to stop (SIGINT, SIGTERM): every resource that outlives a
 * moment — a sandbox's process group, its cgroup, a scratch folder with mounts, a run's temp
 * artifacts folder — is held here from its creation until its normal disposal. Stopping first
 * kills every held process group, then undoes the rest, newest first. From the moment it
 * begins nothing new is recorded (`isStopping`), so a run cut short is redone on resume,
 * never stored as the agent's failure.
 */

type Undo = () => void | Promise<void>;

const kills = new Set<() => void>();
const undos: Undo[] = [];
let stopping = false;

/** Holds a process group to SIGKILL on stop; call the result when it has ended. */
export function holdProcess(kill: () => void): () => void {
  kills.add(kill);
  return () => void kills.delete(kill);
}

/** Holds something to undo on stop (after every process is killed); call the result once it was disposed normally. */
export function holdResource(undo: Undo): () => void {
  undos.push(undo);
  return () => {
    const i = undos.lastIndexOf(undo);
    if (i >= 0) undos.splice(i, 1);
  };
}

const lastly = new Set<() => void>();

/**
 * Holds a synchronous last step of a stop, run by {@link finishStop} just before the process
 * exits, when no other code can run any more (e.g. removing temp folders that work still in
 * flight during the stop may have written to). Call the result to let go of it.
 */
export function holdLastStep(step: () => void): () => void {
  lastly.add(step);
  return () => void lastly.delete(step);
}

/** Runs every last step (synchronously); call it right before `process.exit`. */
export function finishStop(): void {
  for (const step of lastly) {
    try {
      step();
    } catch {
      // left for the next bakeoff's sweep
    }
  }
  lastly.clear();
}

/** True once stopping began: nothing may be recorded any more. */
export function isStopping(): boolean {
  return stopping;
}

/**
 * Kills every held process group, then undoes every held resource, newest first (each given
 * `perStepMs`; a step that fails or hangs is skipped: the next bakeoff sweeps what is left).
 * Returns how many resources were undone.
 */
export async function stopEverything(perStepMs = 5000): Promise<number> {
  stopping = true;
  for (const kill of [...kills]) {
    try {
      kill();
    } catch {
      // already gone
    }
  }
  kills.clear();
  let undone = 0;
  while (undos.length > 0) {
    const undo = undos.pop()!;
    try {
      await Promise.race([Promise.resolve().then(undo), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), perStepMs).unref())]);
      undone++;
    } catch {
      // left for the next bakeoff's sweep
    }
  }
  return undone;
}
