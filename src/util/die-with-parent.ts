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
