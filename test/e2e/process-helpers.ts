import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Pids of processes with an argument containing `token` (this test process excluded). */
export function processesWith(token: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').some((arg) => arg.includes(token))) pids.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/** Pids of processes running `program` (their argv[0]) with an argument containing `token`: the program itself, not a shell that starts it. */
export function processesOf(program: string, token: string): number[] {
  return processesWith(token).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith(`${program}\0`);
    } catch {
      return false; // ended meanwhile
    }
  });
}

/** True once `check` holds (polled every 100 ms), false when `ms` pass first. */
export async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** The parent pid of a running process, or null when it is gone (or a zombie). */
export function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[0] === 'Z' ? null : Number(fields[1]);
  } catch {
    return null;
  }
}

/** One line per pid: its state, parent and command line, for failure messages. */
export function describeProcesses(pids: readonly number[]): string {
  return pids.map((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').slice(0, 300);
      return `${pid} state ${fields[0]} ppid ${fields[1]}: ${cmd}`;
    } catch {
      return `${pid} ended`;
    }
  }).join('\n');
}

export function isRunning(pid: number): boolean {
  return parentOf(pid) !== null;
}

/** Every stored run of a results folder: id, task, agent, outcome kind and reason, runtime. */
export function storedRuns(dbPath: string): { id: string; task: string; agent: string; outcome: string; reason: string | null; runtime: Record<string, string> }[] {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT id, task, agent_id, outcome, reason, runtime_json FROM runs').all() as {
      id: string; task: string; agent_id: string; outcome: string; reason: string | null; runtime_json: string;
    }[];
    return rows.map((r) => ({ id: r.id, task: r.task, agent: r.agent_id, outcome: r.outcome, reason: r.reason, runtime: JSON.parse(r.runtime_json) as Record<string, string> }));
  } finally {
    db.close();
  }
}
