import { existsSync } from 'node:fs';
import { InfraError } from '../errors.js';
import type { ClockShift } from '../sandbox/index.js';
import type { ReportFormat } from './types.js';

const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/faketime/libfaketime.so.1',
  '/usr/local/lib/faketime/libfaketime.so.1',
];

/**
 * Environment that moves the clock and time zone for a test command, through libfaketime
 * preloaded directly (the `faketime` wrapper's named semaphores collide across pid
 * namespaces). Compilers are left on the real clock: rustc and rustup hang or panic under
 * libfaketime, so for cargo only the test binaries get it, as cargo's target runner.
 */
export function clockEnv(clock: ClockShift, format: ReportFormat): Record<string, string> {
  const lib = LIBFAKETIME.find((p) => existsSync(p));
  if (!lib) throw new InfraError('libfaketime not found (apt-get install faketime)');
  const fake = { LD_PRELOAD: lib, FAKETIME: clock.offset, FAKETIME_DONT_FAKE_MONOTONIC: '1' };
  if (format === 'cargo') {
    const triple = `${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}_UNKNOWN_LINUX_GNU`.toUpperCase();
    const runner = ['env', ...Object.entries(fake).map(([k, v]) => `${k}=${v}`)].join(' ');
    return { TZ: clock.timeZone, [`CARGO_TARGET_${triple}_RUNNER`]: runner };
  }
  return { TZ: clock.timeZone, ...fake };
}
