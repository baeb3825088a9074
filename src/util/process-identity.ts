import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Who a process is, beyond its pid: pids are reused, so a pid alone cannot say whether the
 * process that wrote it is still the one running under it. Linux only (`/proc`).
 */
export interface ProcessIdentity {
  readonly pid: number;
  /** Field 22 of `/proc/<pid>/stat`: when the process started, in clock ticks since boot. */
  readonly startTicks: string;
  /** `/proc/sys/kernel/random/boot_id`: start ticks count from this boot. */
  readonly bootId: string;
  readonly host: string;
}

/** What `/proc` says about a pid now; null when no process has it (or only its zombie is left). */
export function readProcess(pid: number): { readonly startTicks: string; readonly state: string } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so split after the last `)`
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  const startTicks = fields[19];
  if (startTicks === undefined || state === 'Z' || state === 'X') return null;
  return { startTicks, state };
}

/** Whether some process has this pid (one owned by another user counts: signal 0 gives EPERM). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process's identity. */
export function currentProcess(): ProcessIdentity {
  const self = readProcess(process.pid);
  if (!self) throw new Error(`cannot read /proc/${process.pid}/stat: bakeoff needs Linux with /proc mounted`);
  return { pid: process.pid, startTicks: self.startTicks, bootId: bootId(), host: os.hostname() };
}

/**
 * Whether the process `identity` names is running now, judged on this machine:
 * `other-host` when it was written on another host (nothing here can tell);
 * `alive` when a process with that pid runs and started at the recorded tick of this boot;
 * `gone` when the pid is free, belongs to another process (reused: another start time),
 * or the machine rebooted since.
 */
export function judgeProcess(identity: ProcessIdentity): 'alive' | 'gone' | 'other-host' {
  if (identity.host !== os.hostname()) return 'other-host';
  if (identity.bootId !== bootId()) return 'gone';
  const now = readProcess(identity.pid);
  return now !== null && now.startTicks === identity.startTicks ? 'alive' : 'gone';
}

let cachedBootId: string | undefined;

function bootId(): string {
  cachedBootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  return cachedBootId;
}
