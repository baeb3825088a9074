import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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
function fakeClockEnv(offset: string): Record<string, string> {
  return { LD_PRELOAD: libfaketime(), FAKETIME: offset, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
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
  const fake = fakeClockEnv(clock.offset);
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
export function clockSafety(language: string, options: { readonly offset: string; readonly path: string }): Promise<ClockSafety> {
  const probe = SLEEP_PROBES[language];
  if (!probe) return Promise.resolve({ safe: true });
  const key = `${language}\0${options.offset}\0${options.path}`;
  let found = probed.get(key);
  if (!found) {
    found = new Promise<ClockSafety>((resolve) => {
      const env = { PATH: options.path, ...fakeClockEnv(options.offset) };
      execFile(probe.argv[0]!, probe.argv.slice(1), { env, timeout: 30_000 }, (error, _stdout, stderr) => {
        if (!error) return resolve({ safe: true });
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ safe: false, why: `${probe.what} could not be checked under a moved clock (${probe.argv[0]} is not on PATH)` });
        const said = /Errno 22|Invalid argument/.test(stderr) ? 'fails with EINVAL (libfaketime before 0.9.11 breaks absolute sleeps on the monotonic clock)' : 'fails';
        resolve({ safe: false, why: `${probe.what} ${said} under this machine's libfaketime with the clock moved ${options.offset}` });
      });
    });
    probed.set(key, found);
  }
  return found;
}
