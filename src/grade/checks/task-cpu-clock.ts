import { closeSync, openSync, readSync } from 'node:fs';

/** The CPU clock of one thread of this process, read from outside that thread. */
export interface TaskCpuClock {
  /** CPU time the thread has used, in nanoseconds; undefined once the thread has exited. */
  readNs(): number | undefined;
  close(): void;
}

/**
 * Opens the CPU clock of a thread of this process by kernel thread id: the host's view of a
 * check worker's thread (the worker reads its own through thread-cpu-clock.mjs, the same
 * files: schedstat in nanoseconds, else utime+stime of stat in 10 ms ticks).
 * @returns undefined when neither file can be opened (the host then backstops on wall time).
 */
export function openTaskCpuClock(tid: number): TaskCpuClock | undefined {
  const dir = `/proc/self/task/${tid}`;
  const buffer = Buffer.alloc(1024);
  const line = (fd: number): string | undefined => {
    try {
      return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
    } catch {
      return undefined; // ESRCH: the thread is gone
    }
  };
  const schedstat = tryOpen(`${dir}/schedstat`);
  if (schedstat !== undefined) {
    return { readNs: () => numberOrUndefined(line(schedstat)?.split(' ', 1)[0]), close: () => closeSync(schedstat) };
  }
  const stat = tryOpen(`${dir}/stat`);
  if (stat === undefined) return undefined;
  return {
    readNs: () => {
      const text = line(stat);
      if (text === undefined) return undefined;
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1e9) / 100;
    },
    close: () => closeSync(stat),
  };
}

function numberOrUndefined(text: string | undefined): number | undefined {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) ? n : undefined;
}

function tryOpen(file: string): number | undefined {
  try {
    return openSync(file, 'r');
  } catch {
    return undefined;
  }
}
