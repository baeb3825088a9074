import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSandbox, startRaced } from './process-sandbox.js';

/*
 * The process sandbox binds `/` recursively: bwrap then re-applies every submount's flags, and a
 * mount that another process removes meanwhile (the scratch folders of other runs, unmounted and
 * deleted) fails the start before the command ran — seen in a full test run as a sandbox
 * conformance failure, and reproduced beside a loop of tmpfs mounts that come and go (3 starts
 * in 300). Setup commands run in this sandbox, so a bake beside another could void runs. The
 * race itself is a matter of microseconds; here bwrap meets it on purpose: a wrapper prints
 * bwrap's own line of that failure for the first starts, then runs the real bwrap.
 */

const root = await mkdtemp(path.join(os.tmpdir(), 'bakeoff-start-race-'));
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const RACED = 'bwrap: Can\'t bind mount /oldroot/ on /newroot/: Unable to apply mount flags: remount "/newroot/tmp/bakeoff-scratch/5a2e/agent/ws": No such file or directory';

/** A bwrap that fails its first `failures` starts as the race does, counting every start in `<dir>/starts`. */
async function racingBwrap(name: string, failures: number): Promise<{ bwrapPath: string; starts: () => Promise<number> }> {
  const dir = path.join(root, name);
  await mkdir(dir);
  const counter = path.join(dir, 'starts');
  const bwrapPath = path.join(dir, 'bwrap');
  await writeFile(bwrapPath, [
    '#!/bin/sh',
    `echo x >> '${counter}'`,
    `if [ "$(wc -l < '${counter}')" -le ${failures} ]; then echo '${RACED.replace(/'/g, `'\\''`)}' >&2; exit 1; fi`,
    'exec bwrap "$@"',
    '',
  ].join('\n'));
  await chmod(bwrapPath, 0o755);
  return { bwrapPath, starts: async () => (await readFile(counter, 'utf8').catch(() => '')).split('\n').filter(Boolean).length };
}

async function run(bwrapPath: string, log: string, onOutput?: (chunk: Buffer) => void) {
  return createProcessSandbox({ bwrapPath }).exec({ command: 'echo started', cwd: '/', env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000, network: 'host', outputPath: log, binds: [], ...(onOutput ? { onOutput } : {}) });
}

describe('process sandbox: a start that met a vanishing mount', () => {
  it('is started again, and the log and onOutput hold what it held before and the command\'s output, not bwrap\'s line', async () => {
    // one made-up race: the real bwrap started after it may meet a real one in a full test run (mounts of other runs come and go), which the next start absorbs
    const bwrap = await racingBwrap('twice', 1);
    const log = path.join(root, 'twice.log');
    await writeFile(log, 'an earlier command\n');
    const seen: Buffer[] = [];
    const result = await run(bwrap.bwrapPath, log, (chunk) => seen.push(chunk));
    expect([result.exitCode, result.outputTail]).toEqual([0, 'started\n']);
    expect(Buffer.concat(seen).toString()).toBe('started\n');
    expect(await bwrap.starts()).toBeGreaterThanOrEqual(2);
    expect(await readFile(log, 'utf8')).toBe('an earlier command\nstarted\n');
  });

  it('gives up after three starts and reports bwrap\'s line as the failure', async () => {
    const bwrap = await racingBwrap('always', 99);
    const log = path.join(root, 'always.log');
    const seen: Buffer[] = [];
    const result = await run(bwrap.bwrapPath, log, (chunk) => seen.push(chunk));
    expect(result.exitCode).toBe(1);
    expect(Buffer.concat(seen).toString()).toBe(`${RACED}\n`);
    expect(await bwrap.starts()).toBe(3);
    expect(await readFile(log, 'utf8')).toBe(`${RACED}\n`);
  });

  it('starts again only on bwrap\'s own start failure, not on a command that fails or prints the same', () => {
    const line = `${RACED}\n`;
    expect(startRaced({ exitCode: 1, outputBytes: line.length, outputTail: line })).toBe(true);
    expect(startRaced({ exitCode: 2, outputBytes: line.length, outputTail: line })).toBe(false);
    expect(startRaced({ exitCode: 1, outputBytes: line.length + 6, outputTail: `hello\n${line}` })).toBe(false);
    expect(startRaced({ exitCode: 1, outputBytes: 5000, outputTail: line })).toBe(false);
    expect(startRaced({ exitCode: 1, outputBytes: 20, outputTail: 'bwrap: No permissions\n' })).toBe(false);
    const noLongerMounted = line.replace('No such file or directory', 'Invalid argument');
    expect(startRaced({ exitCode: 1, outputBytes: noLongerMounted.length, outputTail: noLongerMounted })).toBe(true);
  });
});
