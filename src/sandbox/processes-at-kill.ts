import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { orderFile } from '../store/index.js';

/** At most this many processes are described. */
const MAX_PROCESSES = 200;

/**
 * Writes the order folder's `atKill` file beside `outputPath`: for each process of the cgroup whose `cgroup.procs`
 * is `procsFile`, one line — pid, state (R running, S sleeping, D waiting on I/O, T stopped, Z
 * zombie), the kernel function it waits in (wchan), and its command line (cut at 200
 * characters) — so a session killed at its wall clock after printing nothing still says what it
 * was doing. Never throws: a process that ends meanwhile is left out.
 */
export async function writeProcessesAtKill(procsFile: string, outputPath: string, why: string): Promise<void> {
  try {
    const pids = (await readFile(procsFile, 'utf8')).split('\n').filter((l) => /^\d+$/.test(l)).slice(0, MAX_PROCESSES);
    const lines = await Promise.all(pids.map(describeProcess));
    const text = [`${why}; its processes then (pid state wchan command):`, ...lines.filter((l): l is string => l !== null)].join('\n');
    await writeFile(orderFile(path.dirname(outputPath), 'atKill'), `${text}\n`);
  } catch {
    // a description for the reader only: the kill goes on regardless
  }
}

async function describeProcess(pid: string): Promise<string | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may hold spaces: the state is the field after the last ')'
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '?';
    const wchan = (await readFile(`/proc/${pid}/wchan`, 'utf8').catch(() => '')) || '-';
    const cmd = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ').trim();
    return `${pid} ${state} ${wchan === '0' ? '-' : wchan} ${cmd.length > 200 ? `${cmd.slice(0, 199)}…` : cmd || stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}`;
  } catch {
    return null;
  }
}
