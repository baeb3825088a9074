import { execFile, type ExecFileOptions } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/*
 * Linux keeps a child running when its parent is SIGKILLed. Every program bakeoff starts is
 * therefore started so that it dies with bakeoff (docs/decisions/007):
 *
 *   setpriv --pdeathsig KILL  program args…                                   (one-shot tools)
 *   setpriv --pdeathsig KILL  /bin/sh -c GUARD bakeoff-guard <pid>  program…  (guarded)
 *
 * setpriv asks the kernel to SIGKILL the process when bakeoff dies, and execs the program,
 * which keeps the request (an exec that changes no credentials keeps it). Had bakeoff died
 * before the request, no signal would ever come: harmless for a tool that ends in a moment
 * (git, mount, cp), not for a sandboxed session, so long-lived programs are guarded — the
 * guard shell checks that its parent is still bakeoff before it execs the program. A program
 * that starts a process tree of its own (npm, a setup command) needs a pid namespace as well:
 * see `treeDiesWithParent`.
 */
const GUARD = 'read -r _ _ _ ppid _ < /proc/$$/stat; [ "$ppid" = "$1" ] || exit 125; shift; exec "$@"';

/**
 * The arguments that make a program exit when bakeoff does, to put between a credentials change
 * and the program: `setpriv --reuid … <these> bwrap …`. The kernel drops the death signal
 * when credentials change, so it must be asked for after.
 */
export function parentGuard(parentPid: number = process.pid): string[] {
  return ['--pdeathsig', 'KILL', '/bin/sh', '-c', GUARD, 'bakeoff-guard', String(parentPid)];
}

/**
 * `argv` wrapped so the program is SIGKILLed when bakeoff dies; with `guard`, it also never
 * starts once bakeoff is gone (for programs that may run long). Unchanged where setpriv is
 * missing (util-linux; the sandbox needs it anyway).
 */
export function dieWithParent(argv: readonly string[], options: { readonly guard?: boolean; readonly parentPid?: number } = {}): string[] {
  const setpriv = setprivPath();
  if (!setpriv) return [...argv];
  return options.guard ? [setpriv, ...parentGuard(options.parentPid), ...argv] : [setpriv, '--pdeathsig', 'KILL', ...argv];
}

/**
 * `argv` run as the first process of a new pid namespace, so that when bakeoff dies it and
 * every descendant die with it (bwrap's --die-with-parent), however they detach.
 */
export function treeDiesWithParent(argv: readonly string[], bwrap = 'bwrap'): string[] {
  return dieWithParent([bwrap, '--dev-bind', '/', '/', '--proc', '/proc', '--unshare-pid', '--die-with-parent', '--', ...argv], { guard: true });
}

/** The descriptor on which a lifeline reaches the program (see {@link lifeline}). */
export const LIFELINE_FD = 3;

/*
 * bwrap's --die-with-parent leaves a window: the first process of the new pid namespace asks
 * for its death signal only after it has built the sandbox's mounts, so a bakeoff killed during
 * those milliseconds leaves the whole sandbox running, reparented to init (on a busy machine a
 * third of the kills at a sandbox's start did). The lifeline closes it: bakeoff holds one end
 * of a socket, the program inside the namespace the other on LIFELINE_FD, and a watcher shell
 * beside the program waits on it. The read ends when bakeoff dies, however and whenever, and
 * the watcher then SIGKILLs every process of the namespace (kill -1 reaches no further than
 * the caller's pid namespace, and the watcher checks it is in bwrap's before it sends it).
 * Without the descriptor the watcher is not started.
 */
const WATCH = [
  `if [ -e /proc/self/fd/${LIFELINE_FD} ]; then`,
  `(read _ <&${LIFELINE_FD}; [ "$(cat /proc/1/comm)" = bwrap ] && kill -9 -1) </dev/null >/dev/null 2>&1 &`,
  `exec ${LIFELINE_FD}<&-; fi; exec "$@"`,
].join(' ');

/**
 * The arguments to put before a program that runs as a child of bwrap inside its own pid
 * namespace, so that it and everything it starts die with bakeoff (spawn with `lifeline: true`).
 */
export function lifeline(): string[] {
  return ['/bin/sh', '-c', WATCH, 'bakeoff-lifeline'];
}

let cached: string | null | undefined;

function setprivPath(): string | null {
  if (cached !== undefined) return cached;
  cached = null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(':').concat(['/usr/bin', '/bin'])) {
    const candidate = path.join(dir || '.', 'setpriv');
    try {
      accessSync(candidate, constants.X_OK);
      cached = candidate;
      break;
    } catch {
      // not here
    }
  }
  return cached;
}

const execFileAsync = promisify(execFile);

/**
 * `execFile` (promisified, text output) of a program that dies with bakeoff: `dieWithParent`,
 * or `treeDiesWithParent` with `tree` for a program that starts processes of its own.
 */
export function execFileWithParent(
  file: string,
  args: readonly string[],
  options: Omit<ExecFileOptions, 'encoding'> & { readonly tree?: boolean } = {},
): Promise<{ stdout: string; stderr: string }> {
  const { tree, ...execOptions } = options;
  const [program, ...argv] = (tree ? treeDiesWithParent : dieWithParent)([file, ...args]);
  return execFileAsync(program!, argv, { ...execOptions, encoding: 'utf8' });
}
