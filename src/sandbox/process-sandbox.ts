import { randomBytes } from 'node:crypto';
import { stat, truncate } from 'node:fs/promises';
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
    for (let tries = 1; ; tries++) {
      // the log is appended to (callers log several commands into one file): a raced start's line is cut off again
      const logged = await stat(request.outputPath).then((s) => s.size, () => 0);
      // and the caller's onOutput never sees it: what could be a raced start's line is held until the start is known good
      const output = request.onOutput ? holdWhileRaced(request.onOutput) : null;
      const result = await execMeasured(bwrap, output ? { ...request, onOutput: output.onOutput } : request, cgroup);
      const raced = tries < START_TRIES && startRaced(result);
      if (!raced) {
        output?.release();
        return result;
      }
      await truncate(request.outputPath, logged);
    }
  } finally {
    await cgroup?.destroy();
  }
}

/** Starts of one command while bwrap keeps meeting a host mount that vanished as it copied `/`. */
const START_TRIES = 3;

/**
 * bwrap binds `/` recursively and then re-applies each submount's flags; a mount another process
 * removes in between (a scratch folder of another run or another bakeoff, unmounted and deleted)
 * fails the start before the command ran — the folder is gone, or no longer a mount. Reproduced
 * beside a loop of tmpfs mounts that come and go: 3 starts in 300. Nothing of the command ran,
 * so it is started again, its log as it was before.
 */
export function startRaced(result: Pick<ExecResult, 'exitCode' | 'outputBytes' | 'outputTail'>): boolean {
  return result.exitCode === 1 && result.outputBytes <= 1024
    && /^bwrap: Can't bind mount \/oldroot\/ on \/newroot\/: Unable to apply mount flags: remount "[^"\n]*": (No such file or directory|Invalid argument)\n?$/.test(result.outputTail);
}

const RACED_START = "bwrap: Can't bind mount /oldroot/";

/**
 * The caller's onOutput, with the output held back while it may still be a raced start's one
 * line (it begins as that line does and is at most 1 KiB); `release` passes on what was held.
 */
function holdWhileRaced(onOutput: (chunk: Buffer) => void): { onOutput: (chunk: Buffer) => void; release: () => void } {
  let held: Buffer[] | null = [];
  let seen = '';
  const release = (): void => {
    if (held === null) return;
    const chunks = held;
    held = null;
    for (const chunk of chunks) onOutput(chunk);
  };
  return {
    onOutput(chunk) {
      if (held === null) return onOutput(chunk);
      held.push(chunk);
      seen += chunk.toString('latin1');
      const maybeRaced = seen.length <= 1024 && (RACED_START.startsWith(seen) || seen.startsWith(RACED_START));
      if (!maybeRaced) release();
    },
    release,
  };
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
