import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Busy-loop processes that keep CPUs saturated while a test runs. */
export interface BusyLoops {
  readonly pids: readonly number[];
  /** Kills every loop and waits until each has exited. */
  stop(): Promise<void>;
}

export interface BusyLoopOptions {
  /** Pin every loop to these CPUs (`taskset -c <cpus>`). */
  readonly cpus?: string;
  /**
   * Each loop in a session of its own, like independent processes of other users (decision 011).
   * Without it the loops share the test's session, and with the kernel's autogroup scheduling
   * (`/proc/sys/kernel/sched_autogroup_enabled`, on by default) a session's processes together
   * weigh like one: 48 loops then load a sandbox like one process, not 48.
   */
  readonly ownSessions?: boolean;
  /** Seconds after which each loop is killed even if this process is gone (`timeout -s KILL`); default 600. */
  readonly maxSec?: number;
}

/**
 * Starts `count` processes running `node -e 'for(;;){}'`, and waits until each is running. Each
 * runs under `timeout -s KILL`, so none outlives the test by more than `maxSec`.
 */
export async function startBusyLoops(count: number, options: BusyLoopOptions = {}): Promise<BusyLoops> {
  const guard = ['timeout', '-s', 'KILL', String(options.maxSec ?? 600)];
  const loop = [...(options.cpus === undefined ? [] : ['taskset', '-c', options.cpus]), process.execPath, '-e', 'for(;;){}'];
  const detached = options.ownSessions === true;
  // independent processes sit at the top of the CPU hierarchy, whatever group this process is in (a bakeoff moves itself)
  const top = ['/sys/fs/cgroup/cpu/cgroup.procs', '/sys/fs/cgroup/cgroup.procs'].find((f) => existsSync(f));
  const argv = detached && top ? [...guard, '/bin/sh', '-c', `echo $$ > ${top} 2>/dev/null; exec "$@"`, 'busy-loop', ...loop] : [...guard, ...loop];
  const loops: ChildProcess[] = Array.from({ length: count }, () => spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', detached }));
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
            // `timeout` leads a process group of its own with the loop in it: the whole group goes
            try {
              process.kill(-p.pid!, 'SIGKILL');
            } catch {
              p.kill('SIGKILL');
            }
          }),
        ),
      );
    },
  };
}

/** The 1-minute load average now. */
export async function loadAverage(): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  return Number((await readFile('/proc/loadavg', 'utf8')).split(' ')[0]);
}
