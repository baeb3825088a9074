import { spawn, type ChildProcess } from 'node:child_process';

/** Busy-loop processes that keep CPUs saturated while a test runs. */
export interface BusyLoops {
  readonly pids: readonly number[];
  /** Kills every loop and waits until each has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `count` processes running `node -e 'for(;;){}'`, optionally pinned to the CPUs given
 * (`taskset -c <cpus>`), and waits until each is running.
 */
export async function startBusyLoops(count: number, options: { cpus?: string } = {}): Promise<BusyLoops> {
  const loops: ChildProcess[] = Array.from({ length: count }, () =>
    options.cpus === undefined
      ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' })
      : spawn('taskset', ['-c', options.cpus, process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }),
  );
  await Promise.all(loops.map((p) => new Promise<void>((resolve, reject) => p.once('spawn', resolve).once('error', reject))));
  // Let them get past node's start-up and into the loop.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    pids: loops.map((p) => p.pid!),
    stop: async () => {
      await Promise.all(
        loops.map((p) =>
          p.exitCode !== null || p.signalCode !== null ? undefined : new Promise<void>((resolve) => {
            p.once('exit', () => resolve());
            p.kill('SIGKILL');
          }),
        ),
      );
    },
  };
}
