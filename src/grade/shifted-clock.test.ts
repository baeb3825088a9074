import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clockEnv, clockSafety } from './shifted-clock.js';

const run = promisify(execFile);
const PATH = process.env.PATH ?? '';

describe('the shifted clock of the date check', () => {
  it('moves the wall clock and the time zone, and leaves the monotonic clock real', async () => {
    const env = clockEnv({ offset: '+7y', timeZone: 'Pacific/Kiritimati' }, 'node-test');
    const { stdout } = await run(process.execPath, ['-e', 'console.log(new Date().getFullYear(), new Date().getTimezoneOffset())'], { env: { PATH, ...env } });
    const [year, offset] = stdout.trim().split(' ').map(Number);
    expect(year).toBeGreaterThanOrEqual(new Date().getFullYear() + 6);
    expect(offset).toBe(-14 * 60);
    expect(env.FAKETIME_DONT_FAKE_MONOTONIC).toBe('1');
  });

  it('moves the time zone only when the shift has no offset', async () => {
    const env = clockEnv({ timeZone: 'Pacific/Kiritimati' }, 'pytest');
    expect(env).toEqual({ TZ: 'Pacific/Kiritimati' });
  });

  it("answers for Python by running its sleep under the moved clock: safe exactly when time.sleep works there", async () => {
    const safety = await clockSafety('python', { offset: '+7y', path: PATH });
    const env = { PATH, ...clockEnv({ offset: '+7y', timeZone: 'UTC' }, 'pytest') };
    const sleeps = await run('python3', ['-c', 'import time; time.sleep(0.001)'], { env }).then(() => true, () => false);
    expect(safety.safe).toBe(sleeps);
    if (!safety.safe) expect(safety.why).toMatch(/^Python's time\.sleep fails with EINVAL \(libfaketime before 0\.9\.11 breaks absolute sleeps on the monotonic clock\) under this machine's libfaketime with the clock moved \+7y$/);
  });

  it('needs no probe for runtimes whose sleeps libfaketime leaves alone, and says when the probe cannot run', async () => {
    expect(await clockSafety('js', { offset: '+7y', path: '' })).toEqual({ safe: true });
    expect(await clockSafety('python', { offset: '+7y', path: '/nonexistent' })).toEqual({ safe: false, why: "Python's time.sleep could not be checked under a moved clock (python3 is not on PATH)" });
  });
});
