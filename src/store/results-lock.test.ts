import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultsBusyError } from '../errors.js';
import { currentProcess, readProcess } from '../util/process-identity.js';
import { lockResults, readHolder, type LockHolder } from './results-lock.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function folder(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'bakeoff-lock-'));
}

/** A real process that sleeps; its pid and start time as /proc shows them. */
async function sleeper(): Promise<{ child: ChildProcess; pid: number; startTicks: string }> {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  const proc = readProcess(child.pid!);
  if (!proc) throw new Error('sleep did not start');
  return { child, pid: child.pid!, startTicks: proc.startTicks };
}

function writeRecord(dir: string, fields: Partial<LockHolder>): LockHolder {
  const record: LockHolder = {
    schemaVersion: 1,
    ...currentProcess(),
    command: 'run',
    argv: ['node', 'bin/bakeoff.js', 'run', 'suite', '--agent', 'gold'],
    cwd: '/home/me/evals',
    startedAt: '2025-01-01T10:00:00.000Z',
    since: '2025-01-01T10:00:01.000Z',
    ...fields,
  };
  writeFileSync(path.join(dir, 'holder.json'), JSON.stringify(record));
  return record;
}

describe('lockResults', () => {
  it('refuses a second taker at once, naming the holder and how to wait or stop it', async () => {
    const dir = folder();
    const lock = await lockResults(dir, { command: 'run', create: true });
    const started = Date.now();
    const refused = await lockResults(dir, { command: 'verify', create: true }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(refused).toBeInstanceOf(ResultsBusyError);
    const message = (refused as Error).message;
    expect(message).toContain(`pid ${process.pid} on host ${os.hostname()}`);
    expect(message).toContain('bakeoff run, started ');
    expect(message).toContain('--wait');
    expect(message).toContain(`kill ${process.pid}`);
    expect(lock.isHeld()).toBe(true);
    lock.release();
    expect(readHolder(dir)).toBeNull();
    const again = await lockResults(dir, { command: 'run', create: true });
    expect(again.tookOverFrom).toBeNull();
    again.release();
    expect(readdirSync(dir).sort()).toEqual(['holder.lock']);
  });

  it('takes over the record of a holder that was killed', async () => {
    const dir = folder();
    const dead = await sleeper();
    dead.child.kill('SIGKILL');
    await new Promise((resolve) => dead.child.once('exit', resolve));
    writeRecord(dir, { pid: dead.pid, startTicks: dead.startTicks });
    const lock = await lockResults(dir, { command: 'run', create: true });
    expect(lock.tookOverFrom?.pid).toBe(dead.pid);
    expect(readHolder(dir)?.pid).toBe(process.pid);
    lock.release();
  });

  it('recognises a record whose pid now belongs to another process as stale', async () => {
    const dir = folder();
    const other = await sleeper();
    writeRecord(dir, { pid: other.pid, startTicks: String(Number(other.startTicks) - 1) });
    const lock = await lockResults(dir, { command: 'run', create: true });
    expect(lock.tookOverFrom?.pid).toBe(other.pid);
    lock.release();
  });

  it('refuses when the record names a live process with its own start time, even without the file lock', async () => {
    const dir = folder();
    const live = await sleeper();
    writeRecord(dir, { pid: live.pid, startTicks: live.startTicks });
    const refused = await lockResults(dir, { command: 'run', create: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ResultsBusyError);
    expect((refused as Error).message).toContain(`kill ${live.pid}`);
  });

  it('never judges a record from another host: refused, saying so and what to delete', async () => {
    const dir = folder();
    writeRecord(dir, { host: 'build-box-7', pid: 1 });
    const refused = await lockResults(dir, { command: 'run', create: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ResultsBusyError);
    const message = (refused as Error).message;
    expect(message).toContain('on another host: pid 1 on host build-box-7');
    expect(message).toContain(`cannot tell from ${os.hostname()}`);
    expect(message).toContain(path.join(dir, 'holder.json'));
  });

  it('with wait, starts once the holder releases, telling once whom it waits for', async () => {
    const dir = folder();
    const first = await lockResults(dir, { command: 'run', create: true });
    const waitedFor: (LockHolder | null)[] = [];
    const second = lockResults(dir, { command: 'run', create: true, wait: true, pollMs: 50, onWait: (h) => waitedFor.push(h) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    first.release();
    const lock = await second;
    expect(waitedFor.map((h) => h?.pid)).toEqual([process.pid]);
    expect(lock.isHeld()).toBe(true);
    lock.release();
  });

  it('escapes control characters of the holder command line in the refusal', async () => {
    const dir = folder();
    writeRecord(dir, { argv: ['node', 'bakeoff', 'run', 'evil\x1b[2Jname'], pid: process.pid, startTicks: currentProcess().startTicks });
    const refused = (await lockResults(dir, { command: 'run', create: true }).catch((e: unknown) => e)) as Error;
    expect(refused.message).toContain('evil\\x1b[2Jname');
    expect(refused.message).not.toContain('\x1b');
  });

  it('needs an existing results folder unless asked to create one, and never takes a file for one', async () => {
    await expect(lockResults(path.join(folder(), 'missing'), { command: 'verify', create: false })).rejects.toThrow(/not a results folder/);
    const file = path.join(folder(), 'results.txt');
    writeFileSync(file, '');
    await expect(lockResults(file, { command: 'run', create: true })).rejects.toThrow(/results\.txt: not a folder/);
  });
});
