import type { ExecRequest, ExecResult, Sandbox } from './types.js';
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
  const argv = dieWithParent([
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
  const result = await spawnLogged({
    argv,
    env: request.env,
    ...loggedOptionsOf(request),
  });
  return { ...result, limitHit: null };
}
