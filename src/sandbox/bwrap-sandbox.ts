import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lifeline, parentGuard, PYTHON_BYTECODE_INSIDE } from '../util/index.js';
import { createCommandCgroup, type Limits } from './cgroups.js';
import { writeProcessesAtKill } from './processes-at-kill.js';
import { loggedOptionsOf, spawnLogged } from './spawn-logged.js';
import { watchStepCpu } from './step-cpu.js';
import type { PackageMask } from './package-stores.js';
import { toolchainEnv, type ToolMount } from './toolchains.js';
import type { ExecRequest, ExecResult, Sandbox } from './types.js';

/** Everything the bubblewrap backend needs to know about the machine and the controls. */
export interface BwrapSandboxOptions {
  /** Host uid (and gid) the sandbox runs as; never 0. */
  readonly uid: number;
  readonly limits: Limits;
  /** Size of the private /tmp and of the private home, in bytes. */
  readonly tmpBytes: number;
  readonly homeBytes: number;
  readonly tools: readonly ToolMount[];
  /** Package folders inside /usr and the toolchains shown with only their kept entries (`package-stores.ts`). */
  readonly masks?: readonly PackageMask[];
  /** The machine's toolchain bytecode (`python-bytecode.ts`), mounted read-only at `PYTHON_BYTECODE_INSIDE`. */
  readonly pythonBytecode?: string | null;
  readonly bwrapPath?: string;
}

const HOME = '/home/agent';
const BRIDGE_INSIDE = '/run/bakeoff/model-bridge.mjs';
const SOCKET_INSIDE = '/run/bakeoff/model.sock';

/**
 * The bubblewrap backend used for every agent session and every grading run.
 *
 * The launcher joins a fresh cgroup (memory, pids, cpu; the freezer for teardown), drops to an
 * unprivileged host uid with no capabilities (setpriv, which also asks for SIGKILL when bakeoff
 * dies: `parentGuard`), and execs bwrap, which adds its own
 * user, pid, network, ipc, uts and mount namespaces, drops every capability inside and forbids
 * nested user namespaces. The filesystem is an allow-list: /usr and /etc read-only, the
 * toolchains read-only at their host paths (of their package folders and /usr's only the test
 * runners and package managers: `masks`), a private size-limited /tmp and home, the request's
 * binds, and nothing else — the suite, hidden files, the results folder, other runs and the
 * host's home are simply absent. The root is remounted read-only at the end. Without
 * `modelBridge` there is no network at all; with it, one loopback port relayed to a host socket.
 */
export function createBwrapSandbox(options: BwrapSandboxOptions): Sandbox {
  let counter = 0;
  return {
    name: 'bwrap',
    isolated: true,
    owner: { uid: options.uid, gid: options.uid },
    home: HOME,
    async exec(request: ExecRequest): Promise<ExecResult> {
      const name = `${process.pid}-${++counter}-${randomBytes(3).toString('hex')}`;
      const cgroup = await createCommandCgroup(name, options.limits, request.cpuWeight);
      try {
        const argv = [
          '/bin/sh',
          '-c',
          'for f in $BAKEOFF_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; exec "$@"',
          'bakeoff-launcher',
          'setpriv', `--reuid=${options.uid}`, `--regid=${options.uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all',
          ...parentGuard(),
          options.bwrapPath ?? 'bwrap',
          ...bwrapArgs(options, request),
        ];
        const watch = watchStepCpu(cgroup, { capCpus: options.limits.cpus });
        const result = await spawnLogged({
          argv,
          env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', BAKEOFF_CGROUP_PROCS: cgroup.procFiles.join(' ') },
          ...loggedOptionsOf(request),
          beforeClockKill: (why) => writeProcessesAtKill(cgroup.procFiles[0]!, request.outputPath, why),
          beforeTimeoutKill: () => watch.sample(),
        }).catch(async (error: unknown) => {
          await watch.stop();
          throw error;
        });
        return { ...result, limitHit: await cgroup.limitHit(), cpu: await watch.stop() };
      } finally {
        await cgroup.destroy();
      }
    },
  };
}

/** The bwrap command line for one request (exported for tests and `bakeoff doctor`). */
export function bwrapArgs(options: BwrapSandboxOptions, request: ExecRequest): string[] {
  const args = [
    '--unshare-all', '--unshare-user', '--uid', '1000', '--gid', '1000', '--hostname', 'sandbox',
    '--disable-userns', '--cap-drop', 'ALL', '--die-with-parent', '--new-session',
    ...(request.network === 'host' ? ['--share-net'] : []),
    '--ro-bind', '/usr', '/usr',
    '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin',
    '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
    '--ro-bind', '/etc', '/etc',
    '--ro-bind', '/dev/null', '/etc/shadow',
    '--proc', '/proc', '--dev', '/dev',
    '--size', String(options.tmpBytes), '--tmpfs', '/tmp',
    '--size', String(options.homeBytes), '--tmpfs', HOME,
    '--tmpfs', '/run',
  ];
  for (const tool of options.tools) args.push('--ro-bind', tool.source, tool.target);
  // the machine's package folders: a view with only the test runners and package managers over each
  for (const mask of options.masks ?? []) args.push('--ro-bind', mask.source, mask.target);
  // the toolchains' compiled modules, where the Python runners' PYTHONPYCACHEPREFIX points
  if (options.pythonBytecode) args.push('--ro-bind', options.pythonBytecode, PYTHON_BYTECODE_INSIDE);
  for (const bind of request.binds) args.push(bind.writable ? '--bind' : '--ro-bind', bind.source ?? bind.path, bind.path);
  if (request.modelBridge) args.push('--bind', request.modelBridge.socket, SOCKET_INSIDE, '--ro-bind', bridgeScript(), BRIDGE_INSIDE);
  args.push('--remount-ro', '/', '--chdir', request.cwd, '--clearenv');
  const env = { ...toolchainEnv(options.tools), ...request.env, HOME, TMPDIR: '/tmp', CARGO_HOME: `${HOME}/.cargo`, USER: 'agent', LOGNAME: 'agent' };
  for (const [key, value] of Object.entries(env)) args.push('--setenv', key, value);
  args.push('--', ...lifeline());
  if (request.modelBridge) args.push('/usr/bin/node', BRIDGE_INSIDE, String(request.modelBridge.port), SOCKET_INSIDE, '--');
  args.push('/bin/sh', '-c', request.command);
  return args;
}

/** The relay script that runs inside a sandbox for `modelBridge`. */
export function bridgeScript(): string {
  for (const candidate of ['./bridge/model-bridge.mjs', '../../src/sandbox/bridge/model-bridge.mjs']) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(file)) return file;
  }
  throw new Error('model-bridge.mjs not found next to the sandbox module');
}
