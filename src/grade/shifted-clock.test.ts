import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildSleepFix, clockEnv, clockSafety } from './shifted-clock.js';

const run = promisify(execFile);
const PATH = process.env.PATH ?? '';
const MOVED = { offset: '+7y', timeZone: 'Pacific/Kiritimati' };
const pythonSleeps = (env: Record<string, string>) =>
  run('python3', ['-c', 'import time, datetime; time.sleep(0.001); print(datetime.datetime.now().year)'], { env: { PATH, ...env } }).then((r) => Number(r.stdout.trim()), () => null);

describe('the shifted clock of the date check', () => {
  it('moves the wall clock and the time zone, and leaves the monotonic clock real', async () => {
    const env = clockEnv(MOVED, 'node-test');
    const { stdout } = await run(process.execPath, ['-e', 'console.log(new Date().getFullYear(), new Date().getTimezoneOffset())'], { env: { PATH, ...env } });
    const [year, offset] = stdout.trim().split(' ').map(Number);
    expect(year).toBeGreaterThanOrEqual(new Date().getFullYear() + 6);
    expect(offset).toBe(-14 * 60);
    expect(env.FAKETIME_DONT_FAKE_MONOTONIC).toBe('1');
  });

  it('moves the time zone only when the shift has no offset', () => {
    expect(clockEnv({ timeZone: 'Pacific/Kiritimati', sleepFix: '/x.so' }, 'pytest')).toEqual({ TZ: 'Pacific/Kiritimati' });
  });

  it("keeps Python's time.sleep working under the moved clock with bakeoff's sleep fix, the clock still moved", async () => {
    const fix = await buildSleepFix();
    if (fix === null) expect.fail('no C compiler (cc) on this machine to build the sleep fix');
    expect(await pythonSleeps(clockEnv({ ...MOVED, sleepFix: fix }, 'pytest'))).toBeGreaterThanOrEqual(new Date().getFullYear() + 6);
    expect(clockEnv({ ...MOVED, sleepFix: fix }, 'pytest').LD_PRELOAD).toMatch(new RegExp(`^${fix}:.*libfaketime\\.so\\.1$`));
    expect(await clockSafety('python', { offset: '+7y', path: PATH, sleepFix: fix })).toEqual({ safe: true });
  });

  it('answers for Python by running its sleep under the moved clock: without the fix, safe exactly when time.sleep works there', async () => {
    const safety = await clockSafety('python', { offset: '+7y', path: PATH });
    expect(safety.safe).toBe((await pythonSleeps(clockEnv(MOVED, 'pytest'))) !== null);
    if (!safety.safe) {
      expect(safety.why).toBe(
        "Python's time.sleep fails with EINVAL (libfaketime before 0.9.11 breaks absolute sleeps on the monotonic clock) under this machine's libfaketime with the clock moved +7y (bakeoff's fix for it needs a C compiler, cc)",
      );
    }
  });

  it('needs no probe for runtimes whose sleeps libfaketime leaves alone, and says when the probe cannot run', async () => {
    expect(await clockSafety('js', { offset: '+7y', path: '' })).toEqual({ safe: true });
    expect(await clockSafety('python', { offset: '+7y', path: '/nonexistent' })).toEqual({ safe: false, why: "Python's time.sleep could not be checked under a moved clock (python3 is not on PATH)" });
  });
});
