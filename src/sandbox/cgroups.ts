import { existsSync, realpathSync } from 'node:fs';
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

/**
 * The CPU weight of a command's group, in ordinary processes: 1 for every agent session and test
 * run (decision 011); more only for verify's re-check of a disagreeing re-grade, which runs alone
 * (decision 011, point 5). Capped at what the kernel takes (v2 `cpu.weight` 10000).
 */
export const MAX_CPU_WEIGHT = 100;

/** Which limit a command ran into, if any. */
export type LimitHit = 'memory' | 'pids' | null;

/**
 * One cgroup per command (v1: memory, pids, cpu, cpuacct, freezer hierarchies; v2: one unified
 * group). The launcher writes its own pid into `procFiles` before it execs the sandbox, so the
 * limits hold from the first instruction and every descendant inherits them.
 *
 * CPU weight (decision 011): a command's CPU group sits at the top of its hierarchy
 * (`<cpu>/bakeoff-<name>`, v2 `/sys/fs/cgroup/bakeoff-<name>`) with the weight of one ordinary
 * process (v1 `cpu.shares` 1024, v2 `cpu.weight` 100), never under a shared parent: under one
 * parent every sandbox of every bakeoff on the machine together weighed like a single process,
 * and a loaded host starved them all (15.7x slower at load 66). Memory, pids and the freezer have
 * no weights and stay under `<hierarchy>/bakeoff/<name>`.
 */
export interface CommandCgroup {
  readonly version: 1 | 2;
  /** `cgroup.procs` files the launcher must join. */
  readonly procFiles: readonly string[];
  /** Which limit was hit (read before `destroy`). */
  limitHit(): Promise<LimitHit>;
  /** CPU time the group's processes have used so far (exited ones included), in ns; null when unreadable. */
  cpuUsageNs(): Promise<number | null>;
  /** The pids in the group now. */
  pids(): Promise<number[]>;
  /**
   * The group's own CPU pressure (cgroup v2 `cpu.pressure`, also on a v1 host's unified
   * hierarchy): µs during which every runnable task of the group waited for a CPU (`full`);
   * null where the kernel keeps none for the group.
   */
  cpuFullStallUs(): Promise<number | null>;
  /** Time the group's CPU limit (its quota) held it back, summed over CPUs, in ns (0 when unreadable). */
  throttledNs(): Promise<number>;
  /** Kills every process left in the group, waits until it is empty, and removes it. */
  destroy(): Promise<void>;
}

const ROOT = '/sys/fs/cgroup';
const V1 = ['memory', 'pids', 'cpu', 'freezer'] as const;
/** Prefix of a command's CPU group at the top of a hierarchy (v1 cpu and cpuacct, v2). */
const FLAT = 'bakeoff-';

export function cgroupVersion(): 1 | 2 | null {
  if (existsSync(path.join(ROOT, 'cgroup.controllers'))) return 2;
  if (V1.every((c) => existsSync(path.join(ROOT, c)))) return 1;
  return null;
}

/**
 * A cgroup for one command, held until it is destroyed so that a stop (SIGINT) removes it too.
 * `limits` null: a group that only measures (CPU time, processes), for the unsandboxed commands
 * (a task's setup). It weighs like `weight` ordinary processes (default 1, at most
 * {@link MAX_CPU_WEIGHT}).
 */
export async function createCommandCgroup(name: string, limits: Limits | null, weight = 1): Promise<CommandCgroup> {
  const version = cgroupVersion();
  if (version !== 1 && version !== 2) throw new InfraError(`no usable cgroups under ${ROOT} (need memory, pids, cpu and freezer)`);
  const processes = Math.min(MAX_CPU_WEIGHT, Math.max(1, Math.round(weight)));
  const group = version === 1 ? await createV1(name, limits, processes) : await createV2(name, limits, processes);
  const release = holdResource(() => group.destroy());
  return {
    ...group,
    destroy: async () => {
      release();
      await group.destroy();
    },
  };
}

/** The v1 CPU hierarchies: cpu, and cpuacct when it is mounted apart (else it is the same folder). */
function v1CpuRoots(): string[] {
  const roots = [path.join(ROOT, 'cpu')];
  const acct = path.join(ROOT, 'cpuacct');
  if (existsSync(acct) && realpathSync(acct) !== realpathSync(roots[0]!)) roots.push(acct);
  return roots;
}

async function createV1(name: string, limits: Limits | null, processes: number): Promise<CommandCgroup> {
  const nested = limits === null ? [] : (['memory', 'pids', 'freezer'] as const);
  const dirs = Object.fromEntries(nested.map((c) => [c, path.join(ROOT, c, 'bakeoff', name)])) as Partial<Record<'memory' | 'pids' | 'freezer', string>>;
  const cpuDirs = v1CpuRoots().map((root) => path.join(root, FLAT + name));
  const all = [...Object.values(dirs), ...cpuDirs];
  for (const dir of all) await mkdir(dir, { recursive: true });
  const cpu = cpuDirs[0]!;
  // the weight of one process (or of `processes`) at the top of the hierarchy (decision 011)
  await writeFile(path.join(cpu, 'cpu.shares'), String(1024 * processes));
  // on a hybrid host the unified hierarchy keeps the group's own CPU pressure
  const unified = await unifiedGroup(name);
  if (unified !== null) all.push(unified);
  if (limits !== null) {
    await writeFile(path.join(dirs.memory!, 'memory.limit_in_bytes'), String(limits.memoryBytes));
    const memsw = path.join(dirs.memory!, 'memory.memsw.limit_in_bytes');
    if (existsSync(memsw)) await writeFile(memsw, String(limits.memoryBytes));
    await writeFile(path.join(dirs.pids!, 'pids.max'), String(limits.pids));
    await writeFile(path.join(cpu, 'cpu.cfs_period_us'), '100000');
    await writeFile(path.join(cpu, 'cpu.cfs_quota_us'), String(Math.round(limits.cpus * 100_000)));
  }
  const acct = cpuDirs.find((d) => existsSync(path.join(d, 'cpuacct.usage')));
  return {
    version: 1,
    procFiles: all.map((d) => path.join(d, 'cgroup.procs')),
    limitHit: async () => {
      if (!dirs.memory || !dirs.pids) return null;
      const oom = await readFile(path.join(dirs.memory, 'memory.oom_control'), 'utf8').catch(() => '');
      if (/oom_kill [1-9]/.test(oom)) return 'memory';
      const failcnt = await readFile(path.join(dirs.memory, 'memory.failcnt'), 'utf8').catch(() => '0');
      if (Number(failcnt) > 0 && /under_oom 1/.test(oom)) return 'memory';
      const events = await readFile(path.join(dirs.pids, 'pids.events'), 'utf8').catch(() => '');
      return /max [1-9]/.test(events) ? 'pids' : null;
    },
    cpuUsageNs: async () => (acct === undefined ? null : readNumber(path.join(acct, 'cpuacct.usage'))),
    pids: () => readPids(path.join(cpu, 'cgroup.procs')),
    cpuFullStallUs: async () => (unified === null ? null : readFullStall(unified)),
    throttledNs: async () => readStatField(path.join(cpu, 'cpu.stat'), 'throttled_time', 1),
    destroy: async () => {
      await emptyGroup(dirs.freezer ?? cpu);
      for (const dir of all) await removeGroup(dir);
    },
  };
}

async function createV2(name: string, limits: Limits | null, processes: number): Promise<CommandCgroup> {
  await writeFile(path.join(ROOT, 'cgroup.subtree_control'), '+memory +pids +cpu').catch(() => {});
  const dir = path.join(ROOT, FLAT + name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'cpu.weight'), String(100 * processes)).catch(() => {});
  if (limits !== null) {
    await writeFile(path.join(dir, 'memory.max'), String(limits.memoryBytes));
    await writeFile(path.join(dir, 'memory.swap.max'), '0').catch(() => {});
    await writeFile(path.join(dir, 'pids.max'), String(limits.pids));
    await writeFile(path.join(dir, 'cpu.max'), `${Math.round(limits.cpus * 100_000)} 100000`);
  }
  return {
    version: 2,
    procFiles: [path.join(dir, 'cgroup.procs')],
    limitHit: async () => {
      if (limits === null) return null;
      // oom: reclaim could not bring the group under memory.max (never `max` alone: page cache hits it and is reclaimed)
      const mem = await readFile(path.join(dir, 'memory.events'), 'utf8').catch(() => '');
      if (/^oom(_kill)? [1-9]/m.test(mem)) return 'memory';
      const pids = await readFile(path.join(dir, 'pids.events'), 'utf8').catch(() => '');
      return /max [1-9]/.test(pids) ? 'pids' : null;
    },
    cpuUsageNs: async () => {
      const stat = await readFile(path.join(dir, 'cpu.stat'), 'utf8').catch(() => '');
      const usec = /^usage_usec (\d+)$/m.exec(stat);
      return usec ? Number(usec[1]) * 1000 : null;
    },
    pids: () => readPids(path.join(dir, 'cgroup.procs')),
    cpuFullStallUs: () => readFullStall(dir),
    throttledNs: async () => readStatField(path.join(dir, 'cpu.stat'), 'throttled_usec', 1000),
    destroy: async () => {
      await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(() => killAll(path.join(dir, 'cgroup.procs')));
      await waitEmpty(path.join(dir, 'cgroup.procs'));
      await removeGroup(dir);
    },
  };
}

/** The unified hierarchy of a v1 host (systemd's hybrid mode), or null. */
function unifiedRoot(): string | null {
  const root = path.join(ROOT, 'unified');
  return existsSync(path.join(root, 'cgroup.controllers')) ? root : null;
}

/** A group for the command at the top of a v1 host's unified hierarchy, when it keeps CPU pressure; else null. */
async function unifiedGroup(name: string): Promise<string | null> {
  const root = unifiedRoot();
  if (root === null) return null;
  const dir = path.join(root, FLAT + name);
  const made = await mkdir(dir).then(() => true, () => false);
  if (!made) return null;
  if (existsSync(path.join(dir, 'cpu.pressure'))) return dir;
  await rmdir(dir).catch(() => {});
  return null;
}

async function readFullStall(dir: string): Promise<number | null> {
  const text = await readFile(path.join(dir, 'cpu.pressure'), 'utf8').catch(() => '');
  const full = /^full .*total=(\d+)/m.exec(text);
  return full ? Number(full[1]) : null;
}

async function readStatField(file: string, field: string, toNs: number): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const value = new RegExp(`^${field} (\\d+)$`, 'm').exec(text);
  return value ? Number(value[1]) * toNs : 0;
}

async function readNumber(file: string): Promise<number | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  const n = text === null ? NaN : Number(text.trim());
  return Number.isFinite(n) ? n : null;
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

/**
 * Every bakeoff command cgroup that exists now, live or left by a bakeoff that died (SIGKILL):
 * under each hierarchy's `bakeoff/` parent, and the CPU groups at the top of a hierarchy
 * (`bakeoff-<name>`; decision 011), grouped by name.
 */
export async function listCommandCgroups(): Promise<CommandCgroupInfo[]> {
  const version = cgroupVersion();
  const parents = version === 1 ? [...V1, 'cpuacct'].map((c) => path.join(ROOT, c, 'bakeoff')) : version === 2 ? [path.join(ROOT, 'bakeoff')] : [];
  const tops = version === 1 ? [...v1CpuRoots(), ...(unifiedRoot() === null ? [] : [unifiedRoot()!])] : version === 2 ? [ROOT] : [];
  const byName = new Map<string, string[]>();
  const add = (name: string, dir: string): void => {
    byName.set(name, [...(byName.get(name) ?? []), dir]);
  };
  for (const parent of parents) {
    for (const entry of await readdir(parent, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory()) add(entry.name, path.join(parent, entry.name));
    }
  }
  for (const top of tops) {
    for (const entry of await readdir(top, { withFileTypes: true }).catch(() => [])) {
      if (entry.isDirectory() && entry.name.startsWith(FLAT)) add(entry.name.slice(FLAT.length), path.join(top, entry.name));
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
