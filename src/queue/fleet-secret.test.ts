import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFleetSecret } from './fleet-secret.js';

const long = 'f0'.repeat(32);

describe('the fleet secret', () => {
  it('comes from --secret-file, else BAKEOFF_FLEET_SECRET_FILE, else BAKEOFF_FLEET_SECRET, without a file\'s last newline', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-secret-'));
    await writeFile(path.join(dir, 'flag'), `${'1'.repeat(40)}\n`);
    await writeFile(path.join(dir, 'env'), `${'2'.repeat(40)}\n`);
    const env = { BAKEOFF_FLEET_SECRET_FILE: 'env', BAKEOFF_FLEET_SECRET: long };
    expect((await readFleetSecret({ secretFile: 'flag', env, cwd: dir })).toString()).toBe('1'.repeat(40));
    expect((await readFleetSecret({ env, cwd: dir })).toString()).toBe('2'.repeat(40));
    expect((await readFleetSecret({ env: { BAKEOFF_FLEET_SECRET: long }, cwd: dir })).toString()).toBe(long);
  });

  it('is required, long enough, and never shown in the error', async () => {
    await expect(readFleetSecret({ env: {}, cwd: '/' })).rejects.toThrow(/a fleet needs its secret, which signs every job and result: set BAKEOFF_FLEET_SECRET/);
    const short = 'hunter2-hunter2';
    const error = await readFleetSecret({ env: { BAKEOFF_FLEET_SECRET: short }, cwd: '/' }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^BAKEOFF_FLEET_SECRET: expected a fleet secret of at least 32 characters, received 15/);
    expect((error as Error).message).not.toContain(short);
    await expect(readFleetSecret({ secretFile: '/nonexistent/secret', env: {}, cwd: '/' })).rejects.toThrow(/^--secret-file \/nonexistent\/secret: cannot read the fleet secret \(ENOENT\)/);
  });
});
