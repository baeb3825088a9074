import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { ExecRequest, ExecResult, Sandbox } from './types.js';
import { cgroupVersion, createCommandCgroup, type CommandCgroup } from './cgroups.js';
import { watchStepCpu } from './step-cpu.js';
import { bridgeScript } from './bwrap-sandbox.js';
import { loggedOptionsOf, spawnLogged } from './spawn-logged.js';
import { dieWithParent, lifeline } from '../util/index.js';

/**
 * The unsafe backend: each command gets its own pid namespace (so killing it kills every
 * descendant, setsid/nohup children included) and, when asked, an empty network namespace
 * with loopback up. It hides NO files and drops no privileges. bakeoff uses it for a task's
 * setup command (written by the suite's author, needs the network) and, only with
 * `--unsafe-no-sandbox`, for agents and grading.
 */
export function createProcessSandbox(options: { bwrapPath?: string } = {}): Sandbox {
  const bwrap = options.bwrapPath ?? 'bwrap';
  return {
    name: 'unsafe-no-sandbox',
    isolated: false,
    owner: null,
    home: null,
    exec: (request) => execInNamespaces(bwrap, request),
  };
}

async function execInNamespaces(bwrap: string, request: ExecRequest): Promise<ExecResult> {
  const cgroup = await measuringCgroup(request.cpuWeight);
  try {
    return await execMeasured(bwrap, request, cgroup);
  } finally {
    await cgroup?.destroy();
  }
}

let counter = 0;

/**
 * A cgroup without limits that only measures the command (CPU time, run-queue wait) and weighs
 * like one process (decision 011), or as the request asks; null where bakeoff may not make one (not root, no cgroups):
 * the command then runs unmeasured.
 */
async function measuringCgroup(weight: number | undefined): Promise<CommandCgroup | null> {
  if (process.getuid?.() !== 0 || cgroupVersion() === null) return null;
  return createCommandCgroup(`${process.pid}-u${++counter}-${randomBytes(3).toString('hex')}`, null, weight).catch(() => null);
}

/** The launcher joins `procFiles` (its pid, so every descendant is in the group), then execs the command. */
const JOIN = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; shift; n=$((n-1)); done; exec "$@"';

async function execMeasured(bwrap: string, request: ExecRequest, cgroup: CommandCgroup | null): Promise<ExecResult> {
  const join = cgroup === null ? [] : ['/bin/sh', '-c', JOIN, 'bakeoff-launcher', String(cgroup.procFiles.length), ...cgroup.procFiles];
  const argv = dieWithParent([
    ...join,
    bwrap,
    '--dev-bind', '/', '/',
    '--proc', '/proc',
    '--unshare-pid',
    ...(request.network === 'none' ? ['--unshare-net'] : []),
    '--die-with-parent',
    '--new-session',
    '--chdir', request.cwd,
    '--',
    ...lifeline(),
    ...(request.modelBridge ? [process.execPath, bridgeScript(), String(request.modelBridge.port), request.modelBridge.socket, '--'] : []),
    '/bin/sh', '-c', request.command,
  ], { guard: true });
  const watch = cgroup === null ? null : watchStepCpu(cgroup, { capCpus: os.availableParallelism() });
  const result = await spawnLogged({
    argv,
    env: request.env,
    ...loggedOptionsOf(request),
    ...(watch ? { beforeTimeoutKill: () => watch.sample() } : {}),
  }).catch(async (error: unknown) => {
    await watch?.stop();
    throw error;
  });
  return { ...result, limitHit: null, cpu: watch ? await watch.stop() : null };
}
