import { mkdtemp, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnLogged, TailRing } from './spawn-logged.js';

const env = { PATH: '/usr/bin:/bin' };

async function logPath(): Promise<string> {
  return path.join(await mkdtemp(path.join(os.tmpdir(), 'bakeoff-spawn-')), 'out.log');
}

describe('spawnLogged', () => {
  it('keeps stdout and stderr in the order they were printed', async () => {
    const outputPath = await logPath();
    const r = await spawnLogged({ argv: ['sh', '-c', 'echo one; echo two >&2; echo three; echo four >&2'], env, outputPath, timeoutMs: 10_000 });
    expect(r.exitCode).toBe(0);
    expect(await readFile(outputPath, 'utf8')).toBe('one\ntwo\nthree\nfour\n');
    expect(r.outputBytes).toBe(19);
    expect(r.outputTruncated).toBe(false);
  });

  it('rejects with the disk\'s own error (ENOSPC) when the log cannot be written, and ends the program instead of crashing bakeoff', async () => {
    // /dev/full answers every write with ENOSPC: a full results disk
    const started = performance.now();
    const run = spawnLogged({ argv: ['sh', '-c', 'echo first; sleep 30; echo never'], env, outputPath: '/dev/full', timeoutMs: 60_000 });
    await expect(run).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('keeps the head and the tail of a flood within the limit and says how much it cut', async () => {
    const outputPath = await logPath();
    const max = 1 << 20;
    // 40 MiB of numbered lines, then a last line the tail must hold
    const script = 'seq 1 5000000; echo THE-END';
    const r = await spawnLogged({ argv: ['sh', '-c', script], env, outputPath, timeoutMs: 60_000, maxOutputBytes: max });
    expect(r.exitCode).toBe(0);
    expect(r.outputTruncated).toBe(true);
    expect(r.outputBytes).toBeGreaterThan(30 * max);
    const size = (await stat(outputPath)).size;
    expect(size).toBeLessThanOrEqual(max + 200);
    const text = await readFile(outputPath, 'utf8');
    expect(text.startsWith('1\n2\n3\n')).toBe(true);
    expect(text.trimEnd().endsWith('4999999\n5000000\nTHE-END')).toBe(true);
    expect(text).toMatch(new RegExp(`\\[bakeoff: \\d+ bytes of output cut here; ${r.outputBytes} bytes printed in all\\]`));
    expect(r.outputTail.trimEnd().endsWith('THE-END')).toBe(true);
  });

  it('kills the whole process group at the wall clock', async () => {
    const outputPath = await logPath();
    const started = Date.now();
    const r = await spawnLogged({ argv: ['sh', '-c', 'sleep 30 & sleep 30; echo never'], env, outputPath, timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await readFile(outputPath, 'utf8')).not.toContain('never');
  });

  it('kills the whole process group when the signal aborts, and says so', async () => {
    const outputPath = await logPath();
    const stop = new AbortController();
    const started = performance.now();
    setTimeout(() => stop.abort(), 300);
    // a descendant that outlives its parent shell must go too (the pipe closes only when it does)
    const r = await spawnLogged({ argv: ['sh', '-c', 'echo before; (sleep 60; echo after) & sleep 60'], env, outputPath, timeoutMs: 30_000, signal: stop.signal });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect([r.aborted, r.timedOut, r.signal]).toEqual([true, false, 'SIGKILL']);
    expect(await readFile(outputPath, 'utf8')).toBe('before\n');
  });

  it('kills at once a command whose signal aborted before it started', async () => {
    const stop = new AbortController();
    stop.abort();
    const r = await spawnLogged({ argv: ['sleep', '60'], env, outputPath: await logPath(), timeoutMs: 30_000, signal: stop.signal });
    expect([r.aborted, r.exitCode]).toEqual([true, null]);
  });
});

describe('TailRing', () => {
  it('holds exactly the last bytes pushed, in order, for chunks smaller and larger than it, before and after it wraps', () => {
    // a fixed linear congruential sequence: the same sizes and bytes every run
    let state = 32;
    const random = (): number => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const capacity of [1, 7, 4096, 10_000]) {
      const ring = new TailRing(capacity);
      const pushed: Buffer[] = [];
      for (let i = 1; i <= 300; i++) {
        const size = [0, 1, 3, 999, 4096, 12_345][Math.floor(random() * 6)]!;
        const chunk = Buffer.allocUnsafe(size);
        for (let j = 0; j < size; j++) chunk[j] = (i * 31 + j * 7) & 255;
        pushed.push(Buffer.from(chunk));
        ring.push(chunk);
        // the stream may hand the same memory out again: the ring holds its own copy
        chunk.fill(0);
        if (i % 25 === 0 || i === 1) {
          const all = Buffer.concat(pushed);
          expect(ring.contents().equals(all.subarray(Math.max(0, all.length - capacity))), `capacity ${capacity}, after ${i} chunks`).toBe(true);
        }
      }
    }
  });
});
