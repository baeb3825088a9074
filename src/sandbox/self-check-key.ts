import { accessSync, constants, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileStamp, type FileStamp } from '../util/index.js';

/*
 * What the sandbox self-check's verdict depends on, so that a verdict kept from an earlier
 * invocation is the verdict the check would give now: the kernel, the user, the programs the
 * sandbox runs (bwrap, setpriv: their real files, by stamp), the switches that allow user
 * namespaces, and the mounts workspaces and cgroups are made on (their options, not their
 * ids). bakeoff's own scratch mounts come and go and are left out. The day is part of the key:
 * whatever else changes (a security module's policy), the check runs again at least daily.
 */

/** Kernel switches that decide whether an unprivileged user namespace may be made. */
const SYSCTLS = ['/proc/sys/user/max_user_namespaces', '/proc/sys/kernel/unprivileged_userns_clone', '/proc/sys/kernel/apparmor_restrict_unprivileged_userns'];

/** Mount points whose options the sandbox depends on: exactly these, or under these. */
const MOUNTS_AT = ['/', '/proc', '/dev', '/sys', '/tmp', '/var/tmp'];
const MOUNTS_UNDER = ['/sys/fs/cgroup'];

export interface SelfCheckKey {
  readonly kernel: string;
  readonly uid: number | null;
  readonly programs: Readonly<Record<string, FileStamp | null>>;
  readonly sysctls: Readonly<Record<string, string | null>>;
  readonly mounts: readonly string[];
  readonly day: string;
}

/** The key the sandbox self-check's verdict is kept under (see above). */
export function selfCheckKey(env: Readonly<Record<string, string | undefined>> = process.env, now: Date = new Date()): SelfCheckKey {
  const tmp = os.tmpdir();
  return {
    kernel: `${os.release()} ${os.version()}`,
    uid: process.getuid?.() ?? null,
    programs: Object.fromEntries(['bwrap', 'setpriv'].map((name) => [name, stampOnPath(name, env.PATH ?? '')])),
    sysctls: Object.fromEntries(SYSCTLS.map((file) => [file, readOrNull(file)])),
    mounts: mountsOf([...MOUNTS_AT, tmp], [...MOUNTS_UNDER]),
    day: now.toISOString().slice(0, 10),
  };
}

/** The stamp of the program `name` resolves to on `PATH`, or null when none is there. */
function stampOnPath(name: string, pathList: string): FileStamp | null {
  for (const dir of pathList.split(':').filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
    } catch {
      continue;
    }
    return fileStamp(file);
  }
  return null;
}

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/**
 * `<mount point> <fs type> <mount options> <super options>` of each mount at one of `at` or under
 * one of `under` (from /proc/self/mountinfo, whose mount ids change with every remount and are
 * left out), sorted.
 */
function mountsOf(at: readonly string[], under: readonly string[]): string[] {
  const info = readOrNull('/proc/self/mountinfo') ?? '';
  const out: string[] = [];
  for (const line of info.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const fields = left.split(' ');
    const point = fields[4];
    if (point === undefined) continue;
    if (!at.includes(point) && !under.some((u) => point === u || point.startsWith(`${u}/`))) continue;
    const [type, , superOptions] = right.split(' ');
    out.push(`${point} ${type} ${fields[5]} ${superOptions}`);
  }
  return out.sort();
}
