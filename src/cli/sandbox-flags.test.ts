import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bake } from '../api/bake.js';
import { UserError } from '../errors.js';
import { DEFAULT_SANDBOX, SANDBOX_NAMES, sandboxNamed } from '../sandbox/index.js';
import { lockedWork, sandboxOf, sandboxRequest, type CliIo } from './io.js';
import { main } from './main.js';

/** main() with captured output; nothing runs past commander's checks in these cases. */
async function cli(argv: readonly string[]): Promise<{ code: number; stderr: string }> {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const io: CliIo = { stdout: new PassThrough(), stderr, cwd: '/', env: {} };
  const code = await main(argv, io);
  return { code, stderr: text };
}

describe('--sandbox <name> and its alias --unsafe-no-sandbox', () => {
  it('turn into the backend name: none given is the default, the alias is unsafe-no-sandbox', () => {
    expect(sandboxOf({})).toBeUndefined();
    expect(sandboxOf({ unsafeNoSandbox: false })).toBeUndefined();
    expect(sandboxOf({ sandbox: 'bwrap' })).toBe('bwrap');
    expect(sandboxOf({ unsafeNoSandbox: true })).toBe('unsafe-no-sandbox');
    expect(sandboxOf({ sandbox: 'unsafe-no-sandbox', unsafeNoSandbox: true })).toBe('unsafe-no-sandbox');
    expect(sandboxRequest({})).toEqual({});
    expect(sandboxRequest({ unsafeNoSandbox: true })).toEqual({ sandbox: 'unsafe-no-sandbox' });
    const io: CliIo = { stdout: new PassThrough(), stderr: new PassThrough(), cwd: '/w', env: { BAKEOFF_CACHE_DIR: '/c' } };
    expect(lockedWork({ concurrency: 2, wait: false, unsafeNoSandbox: true }, io)).toMatchObject({ concurrency: 2, wait: false, sandbox: 'unsafe-no-sandbox', cwd: '/w' });
    expect(lockedWork({ concurrency: 2, wait: false, sandbox: 'bwrap' }, io)).toMatchObject({ sandbox: 'bwrap' });
    expect('sandbox' in lockedWork({ concurrency: 2, wait: false }, io)).toBe(false);
  });

  it('refuse the alias with --sandbox naming another backend', () => {
    expect(() => sandboxOf({ sandbox: 'bwrap', unsafeNoSandbox: true })).toThrow(UserError);
    expect(() => sandboxOf({ sandbox: 'bwrap', unsafeNoSandbox: true })).toThrow('--unsafe-no-sandbox is --sandbox unsafe-no-sandbox, and --sandbox bwrap names another backend: give one of them');
  });

  it('name the registry\'s backends; an unknown name is a usage error listing them', async () => {
    expect(SANDBOX_NAMES).toEqual(['bwrap', 'unsafe-no-sandbox']);
    expect(DEFAULT_SANDBOX).toBe('bwrap');
    expect(sandboxNamed('bwrap')).toMatchObject({ name: 'bwrap', isolates: true, requires: ['bwrap'] });
    expect(sandboxNamed('unsafe-no-sandbox')).toMatchObject({ name: 'unsafe-no-sandbox', isolates: false });
    expect(() => sandboxNamed('docker')).toThrow(UserError);
    expect(() => sandboxNamed('docker')).toThrow('--sandbox: expected one of bwrap, unsafe-no-sandbox, received "docker"');
    // inherited names are no backends
    expect(() => sandboxNamed('toString')).toThrow('received "toString"');
    for (const command of [['validate', 'suite'], ['run', 'suite'], ['verify', 'results'], ['publish', 'results', '--out', 'site'], ['import', 'exercism', 'track'], ['task', 'mine', 'repo']]) {
      const r = await cli([...command, '--sandbox', 'docker']);
      expect(r.code, `${command.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(/'--sandbox <name>' argument 'docker' is invalid\. Allowed choices are bwrap, unsafe-no-sandbox\./);
    }
  });

  it('on a fleet: any backend but the default is refused before the queue is reached (exit 2); the default goes on to the next check', async () => {
    // bake() itself: through main() the command would first sweep the machine's leftovers
    const fleet = { suite: 'suite', agents: ['gold'], queue: 'redis://127.0.0.1:1', cwd: '/', env: {} };
    await expect(bake({ ...fleet, sandbox: 'unsafe-no-sandbox' })).rejects.toThrow('--unsafe-no-sandbox with --queue: a fleet always runs in the bwrap sandbox');
    await expect(bake({ ...fleet, sandbox: 'unsafe-no-sandbox' })).rejects.toBeInstanceOf(UserError);
    await expect(bake({ ...fleet, sandbox: 'bwrap' })).rejects.toThrow('a fleet needs its secret');
  });
});
