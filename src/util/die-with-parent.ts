import { execFile, type ExecFileOptions } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/*
 * Linux keeps a child running when its parent is SIGKILLed. Every program bakeoff starts is
 * therefore started through a guard (docs/decisions/006):
 *
 *   setpriv --pdeathsig KILL  /bin/sh -c GUARD bakeoff-guard <bakeoff pid>  program args…
 *
 * setpriv asks the kernel to SIGKILL the process when bakeoff dies; the guard shell then
 * checks that its parent is still bakeoff (had bakeoff died before the request, no signal
 * would ever come) and execs the program, which keeps the request (an exec that changes no
 * credentials keeps it). A program that starts its own process tree (npm, a setup command)
 * needs a pid namespace as well: see `treeDiesWithParent`.
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
 * `argv` wrapped so the program is SIGKILLed when bakeoff dies (and never starts once it has).
 * Unchanged where setpriv is missing (util-linux; the sandbox needs it anyway).
 */
export function dieWithParent(argv: readonly string[], parentPid: number = process.pid): string[] {
  const setpriv = setprivPath();
  return setpriv ? [setpriv, ...parentGuard(parentPid), ...argv] : [...argv];
}

/**
 * `argv` run as the first process of a new pid namespace, so that when bakeoff dies it and
 * every descendant die with it (bwrap's --die-with-parent), however they detach.
 */
export function treeDiesWithParent(argv: readonly string[], bwrap = 'bwrap'): string[] {
  return dieWithParent([bwrap, '--dev-bind', '/', '/', '--proc', '/proc', '--unshare-pid', '--die-with-parent', '--', ...argv]);
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
