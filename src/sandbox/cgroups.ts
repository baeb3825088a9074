import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InfraError } from '../errors.js';
import { holdResource, pidExists } from '../util/index.js';

/** Resource limits for one sandboxed command. */
export interface Limits {
  readonly memoryBytes: number;
  readonly pids: number;
  /** CPU time per wall second, e.g. 2 = two cores. */
  readonly cpus: number;
}

/** Which limit a command ran into, if any. */
export type LimitHit = 'memory' | 'pids' | null;

/**
 * One cgroup per command (v1: memory, pids, cpu, freezer hierarchies; v2: one unified group).
 * The launcher writes its own pid into `procFiles` before it execs the sandbox, so the limits
 * hold from the first instruction and every descendant inherits them.
 */
export interface CommandCgroup {
  readonly version: 1 | 2;
  /** `cgroup.procs` files the launcher must join. */
  readonly procFiles: readonly string[];
  /** Which limit was hit (read before `destroy`). */
  limitHit(): Promise<LimitHit>;
  /** Kills every process left in the group, waits until it is empty, and removes it. */
  destroy(): Promise<void>;
}

const ROOT = '/sys/fs/cgroup';
const V1 = ['memory', 'pids', 'cpu', 'freezer'] as const;

export function cgroupVersion(): 1 | 2 | null {
  if (existsSync(path.join(ROOT, 'cgroup.controllers'))) return 2;
  if (V1.every((c) => existsSync(path.join(ROOT, c)))) return 1;
  return null;
}

/** A cgroup for one command, held until it is destroyed so that a stop (SIGINT) removes it too. */
export async function createCommandCgroup(name: string, limits: Limits): Promise<CommandCgroup> {
  const version = cgroupVersion();
  if (version !== 1 && version !== 2) throw new InfraError(`no usable cgroups under ${ROOT} (need memory, pids, cpu and freezer)`);
  const group = version === 1 ? await createV1(name, limits) : await createV2(name, limits);
  const release = holdResource(() => group.destroy());
  return {
    ...group,
    destroy: async () => {
      release();
      await group.destroy();
    },
  };
}

async function createV1(name: string, limits: Limits): Promise<CommandCgroup> {
  const dirs = Object.fromEntries(V1.map((c) => [c, path.join(ROOT, c, 'bakeoff', name)])) as Record<(typeof V1)[number], string>;
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  await writeFile(path.join(dirs.memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
  const memsw = path.join(dirs.memory, 'memory.memsw.limit_in_bytes');
  if (existsSync(memsw)) await writeFile(memsw, String(limits.memoryBytes));
  await writeFile(path.join(dirs.pids, 'pids.max'), String(limits.pids));
  await writeFile(path.join(dirs.cpu, 'cpu.cfs_period_us'), '100000');
  await writeFile(path.join(dirs.cpu, 'cpu.cfs_quota_us'), String(Math.round(limits.cpus * 100_000)));
  return {
    version: 1,
    procFiles: Object.values(dirs).map((d) => path.join(d, 'cgroup.procs')),
    limitHit: async () => {
      const oom = await readFile(path.join(dirs.memory, 'memory.oom_control'), 'utf8').catch(() => '');
      if (/oom_kill [1-9]/.test(oom)) return 'memory';
      const failcnt = await readFile(path.join(dirs.memory, 'memory.failcnt'), 'utf8').catch(() => '0');
      if (Number(failcnt) > 0 && /under_oom 1/.test(oom)) return 'memory';
      const events = await readFile(path.join(dirs.pids, 'pids.events'), 'utf8').catch(() => '');
      return /max [1-9]/.test(events) ? 'pids' : null;
    },
    destroy: async () => {
      await emptyGroup(dirs.freezer);
      for (const dir of Object.values(dirs)) await removeGroup(dir);
    },
  };
}

async function createV2(name: string, limits: Limits): Promise<CommandCgroup> {
  const parent = path.join(ROOT, 'bakeoff');
  await mkdir(parent, { recursive: true });
  await writeFile(path.join(ROOT, 'cgroup.subtree_control'), '+memory +pids +cpu').catch(() => {});
  await writeFile(path.join(parent, 'cgroup.subtree_control'), '+memory +pids +cpu').catch(() => {});
  const dir = path.join(parent, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes));
  await writeFile(path.join(dir, 'memory.swap.max'), '0').catch(() => {});
  await writeFile(path.join(dir, 'pids.max'), String(limits.pids));
  await writeFile(path.join(dir, 'cpu.max'), `${Math.round(limits.cpus * 100_000)} 100000`);
  return {
    version: 2,
    procFiles: [path.join(dir, 'cgroup.procs')],
    limitHit: async () => {
      // oom: reclaim could not bring the group under memory.max (never `max` alone: page cache hits it and is reclaimed)
      const mem = await readFile(path.join(dir, 'memory.events'), 'utf8').catch(() => '');
      if (/^oom(_kill)? [1-9]/m.test(mem)) return 'memory';
      const pids = await readFile(path.join(dir, 'pids.events'), 'utf8').catch(() => '');
      return /max [1-9]/.test(pids) ? 'pids' : null;
    },
    destroy: async () => {
      await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(() => killAll(path.join(dir, 'cgroup.procs')));
      await waitEmpty(path.join(dir, 'cgroup.procs'));
      await removeGroup(dir);
    },
  };
}

/** A command cgroup on this machine: its folders (one per v1 hierarchy), its creator and what runs in it. */
export interface CommandCgroupInfo {
  readonly name: string;
  readonly paths: readonly string[];
  /** Group names start with the creating bakeoff's pid. */
  readonly pid: number;
  readonly creatorAlive: boolean;
  readonly processes: number;
}

/** Every bakeoff command cgroup that exists now, live or left by a bakeoff that died (SIGKILL). */
export async function listCommandCgroups(): Promise<CommandCgroupInfo[]> {
  const version = cgroupVersion();
  const parents = version === 1 ? V1.map((c) => path.join(ROOT, c, 'bakeoff')) : version === 2 ? [path.join(ROOT, 'bakeoff')] : [];
  const byName = new Map<string, string[]>();
  for (const parent of parents) {
    for (const entry of await readdir(parent, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) byName.set(entry.name, [...(byName.get(entry.name) ?? []), path.join(parent, entry.name)]);
    }
  }
  const found: CommandCgroupInfo[] = [];
  for (const [name, paths] of byName) {
    const pid = Number(name.split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    const processes = new Set((await Promise.all(paths.map((p) => readPids(path.join(p, 'cgroup.procs'))))).flat()).size;
    found.push({ name, paths, pid, creatorAlive: pidExists(pid), processes });
  }
  return found;
}

/**
 * Removes a group a dead bakeoff left: its processes are killed first (frozen first where a
 * freezer exists, so nothing forks meanwhile). Throws when the group cannot be emptied.
 */
export async function removeStaleCgroup(paths: readonly string[]): Promise<void> {
  const freezer = paths.find((p) => existsSync(path.join(p, 'freezer.state'))) ?? paths[0];
  if (freezer === undefined) return;
  await emptyGroup(freezer);
  for (const dir of paths) await removeGroup(dir);
  const left = paths.filter((dir) => existsSync(dir));
  if (left.length > 0) throw new InfraError(`could not remove ${left.join(', ')} (processes still in it?)`);
}

/**
 * Kills every process of a group and waits until it is empty. With a freezer (v1), the group
 * is frozen first so nothing can fork while it is being killed: pid-namespace teardown after
 * killing the sandbox is asynchronous, and a fork bomb keeps forking until frozen.
 */
async function emptyGroup(dir: string): Promise<void> {
  const state = path.join(dir, 'freezer.state');
  const frozen = existsSync(state) && (await writeFile(state, 'FROZEN').then(() => true, () => false));
  await killAll(path.join(dir, 'cgroup.procs'));
  if (frozen) await writeFile(state, 'THAWED').catch(() => {});
  await waitEmpty(path.join(dir, 'cgroup.procs'));
}

async function killAll(procsFile: string): Promise<void> {
  for (let round = 0; round < 50; round++) {
    const pids = await readPids(procsFile);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function waitEmpty(procsFile: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if ((await readPids(procsFile)).length === 0) return;
    await killAll(procsFile);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function readPids(procsFile: string): Promise<number[]> {
  const text = await readFile(procsFile, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean).map(Number);
}

async function removeGroup(dir: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
