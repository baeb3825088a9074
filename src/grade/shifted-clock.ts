import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ClockShift } from '../sandbox/index.js';
import { InfraError } from '../errors.js';
import type { ReportFormat } from './types.js';

const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
  '/usr/local/lib/faketime/libfaketime.so.1',
];

function libfaketime(): string {
  const lib = LIBFAKETIME.find((p) => existsSync(p));
  if (!lib) throw new InfraError('libfaketime not found (apt-get install faketime)');
  return lib;
}

/**
 * libfaketime moves the wall clock only: the monotonic clock stays real
 * (FAKETIME_DONT_FAKE_MONOTONIC), since timed waits that libfaketime does not wrap
 * (sem_clockwait, pthread_cond_clockwait: Python's lock and Event timeouts, Rust's and Node's
 * waits) take their deadline on the monotonic clock the kernel keeps, and a faked one puts that
 * deadline years ahead: they hang.
 */
function fakeClockEnv(offset: string, sleepFix: string | undefined): Record<string, string> {
  const preload = sleepFix ? `${sleepFix}:${libfaketime()}` : libfaketime();
  return { LD_PRELOAD: preload, FAKETIME: offset, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
}

/**
 * bakeoff's sleep fix, preloaded before libfaketime: `clock_nanosleep` on any clock but the wall
 * clock goes straight to the kernel, as libfaketime 0.9.11 does when the monotonic clock is not
 * faked (upstream 0c2e3d4); wall-clock sleeps still go through libfaketime, which moves them.
 */
const SLEEP_FIX_SOURCE = `#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request, struct timespec *remain) {
  static int (*next)(clockid_t, int, const struct timespec *, struct timespec *);
  if (clock != CLOCK_REALTIME) return syscall(SYS_clock_nanosleep, clock, flags, request, remain) == 0 ? 0 : errno;
  if (!next) next = (int (*)(clockid_t, int, const struct timespec *, struct timespec *))dlsym(RTLD_NEXT, "clock_nanosleep");
  return next ? next(clock, flags, request, remain) : ENOSYS;
}
`;

let sleepFixBuilt: Promise<string | null> | undefined;

/**
 * Builds the sleep fix with the host's C compiler (`cc`), once per process, into a private
 * temporary folder removed when the process exits; null when there is no compiler or the build fails (then the probes of
 * {@link clockSafety} decide without it).
 */
export function buildSleepFix(): Promise<string | null> {
  sleepFixBuilt ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-sleep-fix-'));
    // a few kilobytes, gone with the process (test runs use their own copies)
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await writeFile(path.join(dir, 'sleep-fix.c'), SLEEP_FIX_SOURCE);
    const out = path.join(dir, 'sleep-fix.so');
    return new Promise<string | null>((resolve) => {
      execFile('cc', ['-shared', '-fPIC', '-O2', '-o', out, path.join(dir, 'sleep-fix.c'), '-ldl'], { timeout: 60_000 }, (error) => resolve(error ? null : out));
    });
  })();
  return sleepFixBuilt;
}

/** The name the sleep fix has in a test run's configuration folder (bound read-only into the sandbox). */
const SLEEP_FIX_NAME = 'bakeoff-sleep-fix.so';

/**
 * Puts the clock shift's sleep fix into `configDir`, a folder the test command sees: the shift
 * to use there, its `sleepFix` pointing at the copy.
 */
export async function placeSleepFix(clock: ClockShift, configDir: string): Promise<ClockShift> {
  if (clock.sleepFix === undefined || clock.offset === undefined) return clock;
  const target = path.join(configDir, SLEEP_FIX_NAME);
  await copyFile(clock.sleepFix, target);
  return { ...clock, sleepFix: target };
}

/**
 * Environment that moves the clock and time zone for a test command, through libfaketime
 * preloaded directly (the `faketime` wrapper's named semaphores collide across pid
 * namespaces). Compilers are left on the real clock: rustc and rustup hang or panic under
 * libfaketime, so for cargo only the test binaries get it, as cargo's target runner. A shift
 * without an offset moves the time zone only.
 */
export function clockEnv(clock: ClockShift, format: ReportFormat): Record<string, string> {
  if (clock.offset === undefined) return { TZ: clock.timeZone };
  const fake = fakeClockEnv(clock.offset, clock.sleepFix);
  if (format === 'cargo') {
    const triple = `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}_UNKNOWN_LINUX_GNU`.toUpperCase();
    const runner = ['env', ...Object.entries(fake).map(([k, v]) => `${k}=${v}`)].join(' ');
    return { TZ: clock.timeZone, [`CARGO_TARGET_${triple}_RUNNER`]: runner };
  }
  return { TZ: clock.timeZone, ...fake };
}

/**
 * A program of a language's runtime that sleeps the way that runtime sleeps: it exits 0 when
 * the sleep works under the moved clock. Python's `time.sleep` (3.11+) is an absolute sleep on
 * the monotonic clock, `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, …)`; libfaketime up to
 * 0.9.10 (Debian 12's) rewrites that deadline as if the monotonic clock were faked too, even
 * with FAKETIME_DONT_FAKE_MONOTONIC, subtracting the faked wall-clock time from it: the
 * deadline the kernel gets is negative and every sleep fails with EINVAL (upstream fixed it in
 * 0.9.11). Node's timers and `Atomics.wait` and Rust's `thread::sleep` take relative times or
 * waits libfaketime leaves alone, and sleep right under every version: they need no probe.
 */
const SLEEP_PROBES: Partial<Record<string, { readonly argv: readonly string[]; readonly what: string }>> = {
  python: { argv: ['python3', '-c', 'import time; time.sleep(0.001)'], what: "Python's time.sleep" },
};

/** Whether a task's tests can run under a moved clock, or why only the time zone may move. */
export type ClockSafety = { readonly safe: true } | { readonly safe: false; readonly why: string };

const probed = new Map<string, Promise<ClockSafety>>();

/**
 * Whether this machine's libfaketime keeps `language`'s sleeps working under a moved clock:
 * the language's probe run once per process under the same environment a shifted test run
 * gets. `why` holds no measured figure, so a lock that records it reads the same on every
 * validate on this machine.
 */
export function clockSafety(language: string, options: { readonly offset: string; readonly path: string; readonly sleepFix?: string | null }): Promise<ClockSafety> {
  const probe = SLEEP_PROBES[language];
  if (!probe) return Promise.resolve({ safe: true });
  const key = `${language}\0${options.offset}\0${options.path}\0${options.sleepFix ?? ''}`;
  let found = probed.get(key);
  if (!found) {
    found = new Promise<ClockSafety>((resolve) => {
      const env = { PATH: options.path, ...fakeClockEnv(options.offset, options.sleepFix ?? undefined) };
      execFile(probe.argv[0]!, probe.argv.slice(1), { env, timeout: 30_000 }, (error, _stdout, stderr) => {
        if (!error) return resolve({ safe: true });
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ safe: false, why: `${probe.what} could not be checked under a moved clock (${probe.argv[0]} is not on PATH)` });
        const said = /Errno 22|Invalid argument/.test(stderr) ? 'fails with EINVAL (libfaketime before 0.9.11 breaks absolute sleeps on the monotonic clock)' : 'fails';
        const unfixed = options.sleepFix ? '' : " (bakeoff's fix for it needs a C compiler, cc)";
        resolve({ safe: false, why: `${probe.what} ${said} under this machine's libfaketime with the clock moved ${options.offset}${unfixed}` });
      });
    });
    probed.set(key, found);
  }
  return found;
}
