import { existsSync, rmdirSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const ROOT = '/sys/fs/cgroup';
let weighed: string | null = null;

/**
 * Gives this bakeoff process the CPU weight of the sandboxes it serves (decision 011): its
 * metering proxy, the scripted model server and the model bridge's host end answer every
 * session's requests, and git, overlays and captures prepare every run. Left in the session it
 * was started from, it weighs like one process however many runs it serves (with autogroup
 * scheduling, together with everything else of that terminal session), and on a loaded machine a
 * session then waits on its starved proxy — time that counts against the agent's clock while its
 * own processes look idle. So bakeoff moves itself into `<cpu>/bakeoff-<pid>-host` at the top of
 * the hierarchy, weighing like as many processes as the machine has CPUs (at least 2), and moves
 * back out when it exits. Once per process; nothing where it may not (not root, no cgroups).
 * Here in util, with node's own modules only, so the CLI can do it before it loads the rest.
 */
export async function weighThisProcess(): Promise<void> {
  if (weighed !== null || process.getuid?.() !== 0) return;
  const version = existsSync(path.join(ROOT, 'cgroup.controllers')) ? 2 : existsSync(path.join(ROOT, 'cpu', 'cpu.shares')) ? 1 : null;
  if (version === null) return;
  const top = version === 1 ? path.join(ROOT, 'cpu') : ROOT;
  const dir = path.join(top, `bakeoff-${process.pid}-host`);
  const processes = Math.max(2, os.availableParallelism());
  try {
    await mkdir(dir, { recursive: true });
    if (version === 1) await writeFile(path.join(dir, 'cpu.shares'), String(1024 * processes));
    else await writeFile(path.join(dir, 'cpu.weight'), String(Math.min(10_000, 100 * processes)));
    await writeFile(path.join(dir, 'cgroup.procs'), String(process.pid));
  } catch {
    return;
  }
  weighed = dir;
  process.once('exit', () => {
    // back to the top of the hierarchy, so the group is empty and can go
    try {
      if (existsSync(path.join(top, 'cgroup.procs'))) writeFileSync(path.join(top, 'cgroup.procs'), String(process.pid));
      rmdirSync(dir);
    } catch {
      // a later bakeoff's sweep removes it (its creator is gone)
    }
  });
}
